// Telling a player that it is their turn when they are not looking: the tab's title and a badge on
// its icon always; a chime and a buzz of the phone only when they turned them on (both off by default).

import { t } from "./i18n.js";

let mine = false;
let plainIcon = null;
let audio = null;

export function soundOn() {
  return localStorage.getItem("kosti.sound") === "on";
}

export function vibrationOn() {
  return localStorage.getItem("kosti.vibrate") === "on";
}

export function setVibration(on) {
  localStorage.setItem("kosti.vibrate", on ? "on" : "off");
}

export function canVibrate() {
  return typeof navigator.vibrate === "function";
}

/** The page's audio, made on first use (a browser lets a page sound only after a tap). */
export function audioContext() {
  audio = audio || new AudioContext();
  return audio;
}

/** The icon of the tab with a red dot in its corner: an SVG of its own, as a data URL (the CSP allows data: images). */
function badgeIcon() {
  const drawing =
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">' +
    '<rect x="4" y="4" width="56" height="56" rx="12" fill="#fbf8f1" stroke="#1d1b16" stroke-width="4"/>' +
    '<circle cx="22" cy="22" r="6" fill="#1d1b16"/><circle cx="42" cy="42" r="6" fill="#1d1b16"/>' +
    '<circle cx="50" cy="14" r="13" fill="#d32f2f" stroke="#fff" stroke-width="3"/></svg>';
  return `data:image/svg+xml,${encodeURIComponent(drawing)}`;
}

function chime() {
  if (!soundOn()) return;
  try {
    const context = audioContext();
    const now = context.currentTime;
    [660, 880].forEach((pitch, i) => {
      const tone = context.createOscillator();
      const gain = context.createGain();
      tone.frequency.value = pitch;
      gain.gain.setValueAtTime(0.0001, now + i * 0.16);
      gain.gain.exponentialRampToValueAtTime(0.2, now + i * 0.16 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.16 + 0.3);
      tone.connect(gain).connect(context.destination);
      tone.start(now + i * 0.16);
      tone.stop(now + i * 0.16 + 0.32);
    });
  } catch {
    // a browser without audio stays silent
  }
}

/**
 * Say whether it is this page's player's turn (`on`): the tab's title and icon show it for as
 * long as it lasts; the chime and the buzz, each if turned on, once as it begins.
 */
export function alertTurn(on) {
  const icon = document.getElementById("favicon");
  if (icon && plainIcon === null) plainIcon = icon.getAttribute("href");
  document.title = on ? `● ${t("yourTurn")} — kosti` : t("title");
  document.body.dataset.alert = on ? "turn" : "";
  if (icon) icon.setAttribute("href", on ? badgeIcon() : plainIcon);
  if (on && !mine) {
    chime();
    if (vibrationOn() && canVibrate()) navigator.vibrate([120, 60, 120]);
  }
  mine = on;
}
