// Words of the page in English and Russian. The words of the game (cells, hands, options,
// actions, bot names, the rules, the log) come from kosti's own catalogs (kosti/locale/*.toml,
// served at /api/words/LANG, and the log lines worded by the server); this file holds only
// what belongs to the page. A key that a language lacks is shown as ⟦key⟧ and listed in
// <body data-missing>, so that a test catches it.

const EN = {
  title: "kosti — dice at the table",
  language: "Русский",
  languageLabel: "Switch the page to Russian",
  soundOn: "sound on",
  soundOff: "sound off",
  soundLabel: "Sound of the dice",
  skip: "Skip to the game",
  openTables: "Open tables",
  noOpenTables: "No open tables right now: create one.",
  tableLine: "{taken} of {seats} seated",
  seats: "Players",
  dice: "Dice",
  hints: "Allow hints",
  visibility: "Who may join",
  public: "Anyone: list it among the open tables",
  private: "Only those with the invite link",
  timer: "Time for a turn",
  timerNone: "no limit",
  seconds: { one: "{n} second", other: "{n} seconds" },
  minutes: { one: "{n} minute", other: "{n} minutes" },
  yourName: "Your name",
  needName: "Type your name first.",
  join: "Sit down",
  joinTitle: "Take a seat",
  invite: "Invite link: send it to your friends",
  copy: "Copy",
  copied: "Copied",
  seatLink: "Your seat on another device",
  seatLinkHelp: "Open this link on your phone or another computer to play from there. Keep it to yourself: it is your seat.",
  seatTaken: "You have taken your seat on this device.",
  seatsTitle: "Seats",
  empty: "empty",
  addBot: "Add a bot",
  botLevel: "Bot level",
  you: "you",
  bot: "bot",
  away: "away: a bot plays",
  waiting: { one: "Waiting for players: {n} seat is empty.", other: "Waiting for players: {n} seats are empty." },
  yourTurn: "Your turn",
  turnOf: "{name} to play",
  threw: "{name} threw {dice}",
  throw: "Throw",
  throwRest: "Throw the rest",
  stop: "Stop and record",
  stand: "Stand",
  setAside: "Set aside",
  hint: "Hint",
  hintTitle: "Hint",
  dieLabel: "Die {i}: {face}",
  held: "held",
  locked: "locked",
  scoring: "scores",
  aside: "Set aside",
  turnTotal: "This turn: {points}",
  toHold: "Tap the dice to keep, then throw the rest.",
  toSetAside: "Tap the scoring dice to set aside.",
  keys: "Keys: 1–5 pick dice, T throw, S stop, A set aside, H hint.",
  recordCell: "Record {cell} for {points}",
  other: "Other moves",
  moves: "Your moves",
  player: "Player",
  total: "Total",
  upperBonus: "Upper bonus",
  log: "What happened",
  rules: "Rules of this table",
  changed: "set for this table",
  yes: "yes",
  no: "no",
  off: "off",
  fair: "Fair dice",
  commitment: "Server seed SHA-256 (shown before the first throw)",
  clientSeed: "Client seed (from the players' browsers)",
  serverSeed: "Server seed (revealed at the end)",
  notRevealed: "revealed when the game ends",
  verifyHelp: "Download the record and run: kosti verify record.json",
  download: "Download the record",
  finished: "Game over.",
  abandoned: "The game was abandoned: nobody was left to play it.",
  winners: "Won by {names}.",
  draw: "No single winner.",
  rematch: "Rematch",
  toRematch: "Go to the rematch",
  toLobby: "All tables",
  connecting: "Connecting…",
  disconnected: "Connection lost; reconnecting…",
  spectator: "You are watching.",
  notFound: "There is no such table.",
  timeLeft: "{time} left",
  timedOut: "Time ran out: a bot plays for {name}.",
  takeBack: "I am back: give me my seat",
  resign: "Resign",
  resignConfirm: "Give up this game? You lose it; a bot plays your seat to the end.",
  leave: "Leave the table",
  leaveConfirm: "Leave this table? A bot plays your seat to the end.",
  resigned: "resigned",
  left: "left",
  scorekeeperHelp: { one: "Tap the face of the die that was thrown.", other: "Tap the faces of the {n} dice that were thrown." },
  faceButton: "Add a {face}",
  entered: "Thrown: {dice}",
  backspace: "Remove the last die",
  recordThrow: "Record the throw",
  undo: "Undo the last move",
  history: "Throws of this game",
  editThrow: "Edit",
  cancel: "Cancel",
  editing: "Change throw {n} of {name} (was {dice}):",
  historyLine: "{n}. {name}: {dice}",
  bank: "Bank: {bank}",
  round: "Round {round} of {rounds}",
  sitsOut: "sits out",
  track: "Way to {target}",
  notOpened: "not opened",
  inPit: "in a pit",
  onBarrel: "on the barrel: turn {n} of {of}",
  onBarrelOpen: "on the barrel",
  bolts: { one: "{n} bolt", other: "{n} bolts" },
  falls: { one: "{n} fall", other: "{n} falls" },
  dots: { one: "{n} dot", other: "{n} dots" },
  joined: "{name} sat down.",
  botJoined: "{name} (bot) sat down.",
  reserved: "The seat of {name} is kept for the rematch.",
  started: "The game starts: {names}.",
  rolloff: "Roll-off: {throws}. {name} starts.",
  cameBack: "{name} is back and plays again.",
  resignedLine: "{name} resigned: a bot plays the seat out.",
  leftLine: "{name} left the table: a bot plays the seat out.",
  rematchOffered: "A rematch is offered.",
  undone: "The last move was taken back.",
  edited: "Throw {n} was changed to {dice}; the game was replayed.",
  refusedIllegal: "The rules do not allow that move now.",
  play: "Play",
  namePlaceholder: "Player",
  defaultName: "Player",
  variant: "Rules",
  changeRules: "Change the rules",
  family_thousand: "Thousand («Тысяча»)",
  family_sheet: "Poker dice on a score sheet",
  family_showdown: "Poker dice: best hand wins",
  teaser_thousand: "Race to 1000: set scoring dice aside and know when to stop before a throw burns the turn.",
  teaser_sheet: "Five dice, up to three throws a turn, one cell of your sheet a turn: the best total wins.",
  teaser_showdown: "Everyone antes, throws up to three times and stands: the best hand takes the bank.",
  playBot: "Play a bot",
  playFriend: "Play a friend",
  playKeeper: "Real dice on the table: keep the score here",
  moreSettings: "Players, bots, time",
  levelNamed: "{bot} ({level})",
  inviteTitle: "Invite a friend",
  inviteHelp: "Send this link: whoever opens it sits down at your table. Or seat a bot below.",
  keptFor: "seat kept: waiting for them",
  rejoining: "Sitting down at the rematch…",
  addPlayer: "Another player at this table",
  playerName: "Their name",
  addPlayerButton: "Add the player",
  bustTitle: "{name}: nothing scores, the turn is lost",
  bustLost: "{name}: nothing scores, {points} lost",
  dotTitle: "{name}: past the target, a dot",
  asideLost: "Lost with it",
  stopWhy: "{key} is not allowed yet: {why}",
  alertsTitle: "When it is my turn",
  alertsHelp: "The tab's title and icon always show it; these also tell you when you are not looking.",
  alertSound: "Play a chime",
  alertVibrate: "Vibrate the phone",
  youWon: "You won!",
  youShare: "You share the win!",
  fairHow: "Before the first throw the server showed a fingerprint (SHA-256) of its secret seed; every die came from that seed and the players' seed. At the end the seed is shown, and anyone can check both.",
  verify: "Check the dice",
  verifyLater: "The dice can be checked once the game is over, when the server shows its seed.",
  verifying: "Checking…",
  verifyNoCrypto: "This browser cannot compute SHA-256 here (it needs https): only the server's check follows.",
  verifySeedOk: "The seed shown now has the fingerprint promised before the first throw (checked by this browser).",
  verifySeedBad: "The seed shown now does NOT have the fingerprint promised before the first throw.",
  verifyDiceOk: "Every throw ({throws}, {dice} dice) is what the seeds give, and every move follows the rules.",
  verifyDiceBad: "The record does not check out:",
  verifyFair: "Fair dice.",
  verifyNotFair: "Not fair.",
  legendMade: "✓ exactly three dice of the face: 0 points, the figure is made.",
  legendDash: "— (a dash): a combination recorded without having it, 0 points.",
  legendUpperFirst: "The upper section (ones to sixes) first; the combinations once it is full.",
  legendBanked: "Banked throws («ограды»): throws left unused in a turn, spent by themselves when you throw a fourth time.",
  legendBolt: "bolt: a turn that scored nothing; bolts to a penalty: {limit}, penalty −{n}",
  legendFall: "fall from the barrel: −{n}",
  legendDot: "dot: a turn past the target; dots to a fall: {n}",
};

const RU = {
  title: "kosti — кости за столом",
  language: "English",
  languageLabel: "Переключить страницу на английский",
  soundOn: "звук включён",
  soundOff: "звук выключен",
  soundLabel: "Звук костей",
  skip: "К игре",
  openTables: "Открытые столы",
  noOpenTables: "Открытых столов сейчас нет: создайте свой.",
  tableLine: "сели {taken} из {seats}",
  seats: "Игроков",
  dice: "Кости",
  hints: "Разрешить подсказки",
  visibility: "Кто может сесть",
  public: "Любой: стол виден среди открытых",
  private: "Только по ссылке-приглашению",
  timer: "Время на ход",
  timerNone: "без ограничения",
  seconds: { one: "{n} секунда", few: "{n} секунды", many: "{n} секунд", other: "{n} секунды" },
  minutes: { one: "{n} минута", few: "{n} минуты", many: "{n} минут", other: "{n} минуты" },
  yourName: "Ваше имя",
  needName: "Сначала введите имя.",
  join: "Сесть",
  joinTitle: "Занять место",
  invite: "Ссылка-приглашение: отправьте её друзьям",
  copy: "Копировать",
  copied: "Скопировано",
  seatLink: "Ваше место на другом устройстве",
  seatLinkHelp: "Откройте эту ссылку на телефоне или другом компьютере, чтобы играть оттуда. Никому её не давайте: это ваше место.",
  seatTaken: "Вы заняли своё место на этом устройстве.",
  seatsTitle: "Места",
  empty: "свободно",
  addBot: "Посадить бота",
  botLevel: "Уровень бота",
  you: "вы",
  bot: "бот",
  away: "нет на месте: играет бот",
  waiting: {
    one: "Ждём игроков: свободно {n} место.",
    few: "Ждём игроков: свободно {n} места.",
    many: "Ждём игроков: свободно {n} мест.",
    other: "Ждём игроков: свободно {n} места.",
  },
  yourTurn: "Ваш ход",
  turnOf: "Ход: {name}",
  threw: "{name} бросает: {dice}",
  throw: "Бросить",
  throwRest: "Бросить остальные",
  stop: "Хватит, записать",
  stand: "Остановиться",
  setAside: "Отложить",
  hint: "Подсказка",
  hintTitle: "Подсказка",
  dieLabel: "Кость {i}: {face}",
  held: "оставлена",
  locked: "заперта",
  scoring: "идёт в очки",
  aside: "Отложено",
  turnTotal: "За ход: {points}",
  toHold: "Нажмите на кости, которые оставить, и бросайте остальные.",
  toSetAside: "Нажмите на очковые кости, чтобы отложить их.",
  keys: "Клавиши: 1–5 — кости, T — бросок, S — хватит, A — отложить, H — подсказка.",
  recordCell: "Записать {cell}: {points}",
  other: "Другие ходы",
  moves: "Ваши ходы",
  player: "Игрок",
  total: "Итого",
  upperBonus: "Премия за школу",
  log: "Что происходило",
  rules: "Правила этого стола",
  changed: "задано для этого стола",
  yes: "да",
  no: "нет",
  off: "нет",
  fair: "Честные кости",
  commitment: "SHA-256 серверного зерна (до первого броска)",
  clientSeed: "Клиентское зерно (от браузеров игроков)",
  serverSeed: "Серверное зерно (раскрывается в конце)",
  notRevealed: "раскроется в конце игры",
  verifyHelp: "Скачайте запись и выполните: kosti verify record.json",
  download: "Скачать запись игры",
  finished: "Игра окончена.",
  abandoned: "Игра брошена: играть её больше некому.",
  winners: "Победа: {names}.",
  draw: "Единственного победителя нет.",
  rematch: "Реванш",
  toRematch: "К реваншу",
  toLobby: "Все столы",
  connecting: "Подключение…",
  disconnected: "Связь потеряна; переподключаемся…",
  spectator: "Вы наблюдаете.",
  notFound: "Такого стола нет.",
  timeLeft: "Осталось {time}",
  timedOut: "Время вышло: за игрока {name} играет бот.",
  takeBack: "Я вернулся: верните место",
  resign: "Сдаться",
  resignConfirm: "Сдаться? Игра будет проиграна; до конца за вас сыграет бот.",
  leave: "Уйти из-за стола",
  leaveConfirm: "Уйти из-за стола? До конца игры за вас сыграет бот.",
  resigned: "сдался",
  left: "ушёл",
  scorekeeperHelp: {
    one: "Нажмите грань выпавшей кости.",
    few: "Нажмите грани {n} выпавших костей.",
    many: "Нажмите грани {n} выпавших костей.",
    other: "Нажмите грани выпавших костей.",
  },
  faceButton: "Добавить {face}",
  entered: "Выпало: {dice}",
  backspace: "Убрать последнюю кость",
  recordThrow: "Записать бросок",
  undo: "Отменить последний ход",
  history: "Броски этой игры",
  editThrow: "Изменить",
  cancel: "Отмена",
  editing: "Исправить бросок {n} игрока {name} (было {dice}):",
  historyLine: "{n}. {name}: {dice}",
  bank: "Банк: {bank}",
  round: "Раунд {round} из {rounds}",
  sitsOut: "не играет",
  track: "Путь к {target}",
  notOpened: "не открылся",
  inPit: "в яме",
  onBarrel: "на бочке: ход {n} из {of}",
  onBarrelOpen: "на бочке",
  bolts: { one: "{n} болт", few: "{n} болта", many: "{n} болтов", other: "{n} болта" },
  falls: { one: "{n} падение", few: "{n} падения", many: "{n} падений", other: "{n} падения" },
  dots: { one: "{n} точка", few: "{n} точки", many: "{n} точек", other: "{n} точки" },
  joined: "{name} садится за стол.",
  botJoined: "{name} (бот) садится за стол.",
  reserved: "Место игрока {name} сохранено для реванша.",
  started: "Игра началась: {names}.",
  rolloff: "Кто начинает: {throws}. Начинает {name}.",
  cameBack: "{name} вернулся и снова играет сам.",
  resignedLine: "{name} сдаётся: доигрывает бот.",
  leftLine: "{name} уходит из-за стола: доигрывает бот.",
  rematchOffered: "Предложен реванш.",
  undone: "Последний ход отменён.",
  edited: "Бросок {n} исправлен на {dice}; игра пересчитана.",
  refusedIllegal: "Правила сейчас не позволяют такой ход.",
  play: "Сыграть",
  namePlaceholder: "Игрок",
  defaultName: "Игрок",
  variant: "Правила",
  changeRules: "Изменить правила",
  family_thousand: "Тысяча",
  family_sheet: "Покер на костях (по листу)",
  family_showdown: "Покер на костях: у кого сильнее",
  teaser_thousand: "Гонка до 1000: откладывайте очковые кости и вовремя скажите «хватит», пока бросок не сжёг ход.",
  teaser_sheet: "Пять костей, до трёх бросков за ход, за ход — одна клетка листа; побеждает большая сумма.",
  teaser_showdown: "Все ставят в банк, бросают до трёх раз и останавливаются: лучшая рука забирает банк.",
  playBot: "Играть с ботом",
  playFriend: "Играть с другом",
  playKeeper: "Живые кости на столе: вести счёт здесь",
  moreSettings: "Игроки, боты, время",
  levelNamed: "{bot} ({level})",
  inviteTitle: "Позовите друга",
  inviteHelp: "Отправьте эту ссылку: кто её откроет, сядет за ваш стол. Или посадите бота ниже.",
  keptFor: "место сохранено: ждём",
  rejoining: "Садимся за реванш…",
  addPlayer: "Ещё игрок за этим столом",
  playerName: "Его или её имя",
  addPlayerButton: "Добавить игрока",
  bustTitle: "{name}: ничего не выпало, ход сгорел",
  bustLost: "{name}: ничего не выпало, сгорело {points}",
  dotTitle: "{name}: перебор — точка",
  asideLost: "Сгорело вместе с ним",
  stopWhy: "«{key}» пока нельзя: {why}",
  alertsTitle: "Когда мой ход",
  alertsHelp: "Заголовок и значок вкладки показывают это всегда; это — ещё и когда вы не смотрите.",
  alertSound: "Звуковой сигнал",
  alertVibrate: "Вибрация телефона",
  youWon: "Вы победили!",
  youShare: "Победа на двоих — и вы в их числе!",
  fairHow: "До первого броска сервер показал отпечаток (SHA-256) своего секретного зерна; каждая кость получена из этого зерна и зерна игроков. В конце зерно раскрывается, и проверить можно и то и другое.",
  verify: "Проверить кости",
  verifyLater: "Кости можно проверить, когда игра кончится и сервер раскроет зерно.",
  verifying: "Проверяем…",
  verifyNoCrypto: "Этот браузер не может посчитать SHA-256 здесь (нужен https): будет только проверка сервера.",
  verifySeedOk: "Раскрытое зерно даёт тот отпечаток, что был обещан до первого броска (проверил этот браузер).",
  verifySeedBad: "Раскрытое зерно НЕ даёт отпечатка, обещанного до первого броска.",
  verifyDiceOk: "Каждый бросок ({throws}, костей: {dice}) — ровно то, что дают зёрна, и каждый ход по правилам.",
  verifyDiceBad: "Запись не сходится:",
  verifyFair: "Кости честные.",
  verifyNotFair: "Нечестно.",
  legendMade: "✓ — ровно три кости этого номинала: 0 очков, «фигура выполнена».",
  legendDash: "— (прочерк): комбинация записана без неё, 0 очков.",
  legendUpperFirst: "Сначала школа (единицы … шестёрки), комбинации — когда она заполнена.",
  legendBanked: "Ограды — броски, не использованные в ходе; тратятся сами, когда бросаете в четвёртый раз.",
  legendBolt: "болт — ход без очков; болтов до штрафа: {limit}, штраф −{n}",
  legendFall: "падение с бочки: −{n}",
  legendDot: "точка — ход с перебором цели; точек до падения: {n}",
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
      // asked with the page's version, the catalog is kept by the browser as the page's files are
      const version = document.querySelector("meta[name=kosti-version]")?.content;
      const response = await fetch(`/api/words/${lang}${version ? `?v=${version}` : ""}`);
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
  const message = (shared[current] || {})[key];
  if (message === undefined || message === null) return null;
  return fill(pick(message, values), values);
}

const missing = new Set();

function lacking(key) {
  missing.add(`${current}:${key}`);
  document.body.dataset.missing = [...missing].join(" ");
  return `⟦${key}⟧`;
}

function pick(message, values) {
  if (typeof message !== "object") return message;
  const category = new Intl.PluralRules(current).select(Number(values.n ?? 0));
  return message[category] ?? message.other ?? Object.values(message)[0];
}

/** A word of the page (`key` of this file; plural forms chosen by `values.n`), placeholders filled. */
export function t(key, values = {}) {
  const message = WORDS[current][key];
  return message === undefined ? lacking(key) : fill(pick(message, values), values);
}

/** A word of kosti's catalog that must be there (cells, hands, options, bots…); `word` for optional ones. */
export function w(key, values = {}) {
  return word(key, values) ?? lacking(key);
}

export function cellName(cell) {
  return w(`cell.${cell}`);
}

/** A cell's name as the object of «записать» («Записать тройку»): the catalog's accusative, else its name. */
export function cellAccusative(cell) {
  return word(`cell_acc.${cell}`) ?? cellName(cell);
}

export function handName(hand) {
  return w(`hand.${hand}`);
}

/** A time limit in words: «1 минута», "30 seconds". */
export function duration(seconds) {
  return seconds % 60 === 0 ? t("minutes", { n: seconds / 60 }) : t("seconds", { n: seconds });
}
