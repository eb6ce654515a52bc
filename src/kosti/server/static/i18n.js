// Words of the page in English and Russian. The words of the game (cells, hands, options,
// actions, the rules) come from kosti's own catalogs (kosti/locale/*.toml, served at
// /api/words/LANG); this file holds only what belongs to the page.

const EN = {
  title: "kosti — dice at the table",
  language: "Русский",
  languageLabel: "Switch the page to Russian",
  newTable: "New table",
  game: "Game",
  options: "Options (name=value, comma separated)",
  optionsHelp: "For example lower=[chance] or rounds=1; leave empty for the preset as it is.",
  seats: "Seats",
  dice: "Dice",
  online: "Thrown by the server (provably fair)",
  scorekeeper: "Typed in from a real table",
  hints: "Allow hints",
  yourName: "Your name",
  create: "Create the table",
  join: "Sit down",
  joinTitle: "Take a seat",
  invite: "Invite link",
  copy: "Copy",
  copied: "Copied",
  seatsTitle: "Seats",
  empty: "empty",
  addBot: "Add a bot",
  botLevel: "Bot level",
  you: "you",
  bot: "bot",
  waiting: "Waiting for players: {n} seat(s) empty.",
  yourTurn: "Your turn",
  turnOf: "{name}'s turn",
  threw: "{name} threw {dice}",
  throw: "Throw",
  throwRest: "Throw the rest",
  stop: "Stop",
  setAside: "Set aside",
  hint: "Hint",
  hintTitle: "Hint",
  noHint: "No hint.",
  rollInput: "Dice thrown",
  rollInputHelp: "Type the faces, e.g. 3 5 6 1 2",
  rollExpected: "{n} dice",
  recordThrow: "Record the throw",
  dieLabel: "Die {i}: {face}",
  held: "held",
  locked: "locked",
  toHold: "Click the dice to keep (keys 1–5), then throw.",
  toSetAside: "Click the scoring dice to set aside (keys 1–5).",
  keys: "Keys: 1–5 pick dice, T throw, S stop, A set aside, H hint.",
  record: "Record",
  recordCell: "Record {cell} for {points}",
  other: "Other moves",
  moves: "Your moves",
  player: "Player",
  score: "Score",
  total: "Total",
  upperBonus: "Upper bonus",
  log: "Log",
  rules: "Rules",
  option: "Option",
  value: "Value",
  meaning: "Meaning",
  fair: "Fair dice",
  commitment: "Server seed SHA-256 (shown before the first throw)",
  clientSeed: "Client seed (from the players' browsers)",
  serverSeed: "Server seed (revealed at the end)",
  notRevealed: "revealed when the game ends",
  verifyHelp: "Download the record and run: kosti verify record.json",
  download: "Download the record",
  finished: "Game over.",
  winners: "Won by {names}.",
  draw: "No single winner.",
  connecting: "Connecting…",
  disconnected: "Connection lost; reconnecting…",
  spectator: "You are watching.",
  notFound: "There is no such table.",
  rolloff: "Roll-off: {throws}. {name} starts.",
  joined: "{name} sat down.",
  botJoined: "{name} (bot) sat down.",
  started: "The game starts: {names}.",
  round: "Round",
  lastRound: "Round {round}: {name} took the bank of {bank}",
  bank: "Bank",
  turnTotal: "This turn",
  throwsLeft: "Throws left",
  hand: "Hand",
  opened: "Opened",
  bolts: "Bolts",
  on_barrel: "On the barrel",
  barrel_attempts: "Barrel attempts",
  falls: "Falls",
  dots: "Dots",
  banked: "Banked throws",
  net: "Net",
  yes: "yes",
  no: "no",
};

const RU = {
  title: "kosti — кости за столом",
  language: "English",
  languageLabel: "Переключить страницу на английский",
  newTable: "Новый стол",
  game: "Игра",
  options: "Опции (имя=значение через запятую)",
  optionsHelp: "Например lower=[chance] или rounds=1; пусто — как в пресете.",
  seats: "Мест",
  dice: "Кости",
  online: "Бросает сервер (честные кости)",
  scorekeeper: "Вводятся с живого стола",
  hints: "Разрешить подсказки",
  yourName: "Ваше имя",
  create: "Создать стол",
  join: "Сесть",
  joinTitle: "Занять место",
  invite: "Ссылка-приглашение",
  copy: "Копировать",
  copied: "Скопировано",
  seatsTitle: "Места",
  empty: "свободно",
  addBot: "Посадить бота",
  botLevel: "Уровень бота",
  you: "вы",
  bot: "бот",
  waiting: "Ждём игроков: свободно мест — {n}.",
  yourTurn: "Ваш ход",
  turnOf: "Ходит {name}",
  threw: "{name} бросает: {dice}",
  throw: "Бросить",
  throwRest: "Бросить остальные",
  stop: "Хватит",
  setAside: "Отложить",
  hint: "Подсказка",
  hintTitle: "Подсказка",
  noHint: "Подсказки нет.",
  rollInput: "Выпавшие кости",
  rollInputHelp: "Введите грани, например 3 5 6 1 2",
  rollExpected: "костей: {n}",
  recordThrow: "Записать бросок",
  dieLabel: "Кость {i}: {face}",
  held: "оставлена",
  locked: "заперта",
  toHold: "Выберите кости, которые оставить (клавиши 1–5), и бросайте.",
  toSetAside: "Выберите очковые кости, чтобы отложить (клавиши 1–5).",
  keys: "Клавиши: 1–5 — кости, T — бросок, S — хватит, A — отложить, H — подсказка.",
  record: "Записать",
  recordCell: "Записать {cell}: {points}",
  other: "Другие ходы",
  moves: "Ваши ходы",
  player: "Игрок",
  score: "Очки",
  total: "Итого",
  upperBonus: "Премия за школу",
  log: "Ход игры",
  rules: "Правила",
  option: "Опция",
  value: "Значение",
  meaning: "Смысл",
  fair: "Честные кости",
  commitment: "SHA-256 серверного зерна (до первого броска)",
  clientSeed: "Клиентское зерно (от браузеров игроков)",
  serverSeed: "Серверное зерно (раскрывается в конце)",
  notRevealed: "раскроется в конце игры",
  verifyHelp: "Скачайте запись и выполните: kosti verify record.json",
  download: "Скачать запись игры",
  finished: "Игра окончена.",
  winners: "Победа: {names}.",
  draw: "Единственного победителя нет.",
  connecting: "Подключение…",
  disconnected: "Связь потеряна; переподключаемся…",
  spectator: "Вы наблюдаете.",
  notFound: "Такого стола нет.",
  rolloff: "Кто начинает: {throws}. Начинает {name}.",
  joined: "{name} садится за стол.",
  botJoined: "{name} (бот) садится за стол.",
  started: "Игра началась: {names}.",
  round: "Раунд",
  lastRound: "Раунд {round}: банк ({bank}) берёт {name}",
  bank: "Банк",
  turnTotal: "За ход",
  throwsLeft: "Бросков осталось",
  hand: "Рука",
  opened: "Открыт",
  bolts: "Болты",
  on_barrel: "На бочке",
  barrel_attempts: "Попытки на бочке",
  falls: "Падения",
  dots: "Точки",
  banked: "Ограды",
  net: "Выигрыш",
  yes: "да",
  no: "нет",
};

const WORDS = { en: EN, ru: RU };

let current = "en";

/** The language in use: the one chosen before, else the browser's. */
export function initLanguage() {
  const saved = localStorage.getItem("kosti.lang");
  const guess = (navigator.language || "en").toLowerCase().startsWith("ru") ? "ru" : "en";
  setLanguage(saved === "ru" || saved === "en" ? saved : guess);
  return current;
}

export function setLanguage(lang) {
  current = lang === "ru" ? "ru" : "en";
  localStorage.setItem("kosti.lang", current);
  document.documentElement.lang = current;
  return current;
}

export function language() {
  return current;
}

const shared = {};

/** Fetch the catalog of `lang` from the server, once. */
export async function loadWords(lang) {
  if (!shared[lang]) {
    try {
      const response = await fetch(`/api/words/${lang}`);
      shared[lang] = response.ok ? await response.json() : {};
    } catch {
      shared[lang] = {};
    }
  }
}

function fill(text, values) {
  return text.replace(/\{(\w+)\}/g, (_, name) => String(values[name] ?? ""));
}

/** A message of the shared catalog (plural forms chosen by `values.n`), or null if it has none. */
export function word(key, values = {}) {
  let message = (shared[current] || {})[key];
  if (message === undefined || message === null) return null;
  if (typeof message === "object") {
    const category = new Intl.PluralRules(current).select(Number(values.n ?? 0));
    message = message[category] ?? message.other ?? Object.values(message)[0];
  }
  return fill(message, values);
}

/** The text of `key` with `{name}` placeholders filled from `values`. */
export function t(key, values = {}) {
  return fill(WORDS[current][key] ?? EN[key] ?? key, values);
}

export function cellName(cell) {
  return word(`cell.${cell}`) ?? cell.replaceAll("_", " ");
}

export function handName(hand) {
  return word(`hand.${hand}`) ?? String(hand).replaceAll("_", " ");
}
