// cardtable console: the director's grid and alerts, or the broadcaster's finished boards, from the
// gateway's event stream. Everything is written with textContent: nothing from the wire becomes markup.
'use strict';

const $ = (id) => document.getElementById(id);
const tiles = new Map();   // table id -> {el, data}
const alerts = new Map();  // "table#journal#seq" -> {el, data}: a table's journal replaced numbers its events from 1 again
let streamClock = 0;       // the gateway's clock minus ours, from the snapshot
// For tests and the benchmark: when each alert was shown, publish-to-visible latencies.
window.cardtableStats = { latencies: [], shown: 0 };

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

async function api(path, body) {
  // A POST names its origin, which the console checks (cross-site requests are refused). Under the
  // page's Referrer-Policy no-referrer the Fetch standard names it "null", which is refused: 'same-origin'
  // names the page's own origin to the page's own console, and nothing to any other site.
  const init = body === undefined ? { credentials: 'same-origin' } : {
    method: 'POST', credentials: 'same-origin', referrerPolicy: 'same-origin',
    headers: { 'Content-Type': 'application/json', 'X-Cardtable': '1' }, body: JSON.stringify(body) };
  const r = await fetch(path, init);
  let data = {};
  try { data = await r.json(); } catch (e) { /* an empty or non-JSON reply */ }
  return { status: r.status, data };
}

function clock(seconds) {
  seconds = Math.max(0, Math.floor(seconds));
  const m = Math.floor(seconds / 60), s = seconds % 60;
  return m >= 60 ? `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}` : `${m}:${String(s).padStart(2, '0')}`;
}
const now = () => Date.now() / 1000 + streamClock;

// ---- login -------------------------------------------------------------------------------------------
async function start() {
  const me = await api('/api/me');
  if (me.status !== 200) return showLogin();
  $('who').textContent = `${me.data.name} (${me.data.role})`;
  $('logout').hidden = false;
  if (me.data.role === 'director') startDirector();
  else if (me.data.role === 'broadcaster') startBroadcaster();
}

function showLogin() {
  $('login').hidden = false;
  // Said once after the page reloaded itself because its session was gone (see streamRefused).
  if (sessionStorage.getItem('cardtable-session-ended')) {
    sessionStorage.removeItem('cardtable-session-ended');
    $('login-error').textContent = 'Your session ended (the console restarted, or you logged out elsewhere): log in again.';
  }
  $('login-form').addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const r = await api('/api/login', { name: $('login-name').value, password: $('login-password').value });
    if (r.status === 200) { $('login').hidden = true; $('login-password').value = ''; $('login-error').textContent = ''; return start(); }
    $('login-error').textContent = r.status === 429 ? `Too many failed logins: wait ${r.data.retry_after || 60} s` : (r.data.error || 'refused');
  }, { once: false });
}

// EventSource reconnects by itself after a dropped connection, but an HTTP error ends it for good: the
// page kept the last grid under "reconnecting…" and no alert reached it again. 401: the session is gone
// (the console restarted and forgot it, a logout elsewhere, its 12 hours): the page starts again at the
// login, with nothing old left on show. Anything else (503: the role's pages are all open; a proxy's
// error): a fresh stream after a pause, which brings a fresh snapshot.
async function streamRefused(reopen) {
  let me = { status: 0 };
  try { me = await api('/api/me'); } catch (err) { /* the console is unreachable: try again later */ }
  if (me.status === 401) {
    sessionStorage.setItem('cardtable-session-ended', '1');
    location.reload();
    return;
  }
  setTimeout(reopen, 3000);
}

function watchStream(source, reopen, stateEl) {
  source.addEventListener('open', () => { if (stateEl) stateEl.textContent = 'live'; document.body.classList.remove('stale'); });
  source.addEventListener('error', () => {
    if (stateEl) stateEl.textContent = source.readyState === EventSource.CLOSED ? 'refused: trying again…' : 'reconnecting…';
    document.body.classList.add('stale');  // what is on show may be old: greyed until the stream is back
    if (source.readyState === EventSource.CLOSED) streamRefused(reopen);
  });
}

$('logout').addEventListener('click', async () => { await api('/api/logout', {}); location.reload(); });

// ---- director ----------------------------------------------------------------------------------------
const pendingTiles = new Set();
let renderScheduled = false;
function scheduleRender() {
  if (renderScheduled) return;
  renderScheduled = true;
  // A frame, or 100 ms when frames are throttled: 4,000 events a second become one DOM pass per frame.
  const run = () => { if (renderScheduled) { renderScheduled = false; renderTiles(); } };
  requestAnimationFrame(run);
  setTimeout(run, 100);
}

function renderTiles() {
  const t = Date.now() / 1000;
  for (const id of pendingTiles) drawTile(id);
  pendingTiles.clear();
  const stats = window.cardtableStats;
  for (const sent of pendingLatencies) stats.latencies.push(t - sent);
  pendingLatencies.length = 0;
  if (stats.latencies.length > 200000) stats.latencies.splice(0, 100000);
  summary();
}
const pendingLatencies = [];

function tileFor(id) {
  let t = tiles.get(id);
  if (t) return t;
  const e = el('div', 'tile idle');
  e.dataset.table = id;
  e.tabIndex = 0;
  const top = el('div', 'row');
  top.append(el('span', 'name'), el('span', 'won'));
  e.append(top, el('div', 'row'));
  e.lastChild.append(el('span', 'bno'), el('span', 'elapsed'));
  e.addEventListener('click', () => openDetail(id));
  e.addEventListener('keydown', (k) => { if (k.key === 'Enter') openDetail(id); });
  t = { el: e, data: null };
  tiles.set(id, t);
  // Keep the grid in table order: numbers numerically.
  const all = [...tiles.keys()].sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
  const next = all[all.indexOf(id) + 1];
  $('grid').insertBefore(e, next ? tiles.get(next).el : null);
  return t;
}

function drawTile(id) {
  const t = tiles.get(id);
  const d = t.data;
  t.el.className = `tile ${d.state}` + (selected === id ? ' selected' : '');
  t.el.dataset.state = d.state;
  t.el.querySelector('.name').textContent = d.table;
  t.el.querySelector('.bno').textContent = d.board ? `B${d.board}` : '';
  // Tricks won, North-South–East-West (the table's director-only detail); before the first answer, how
  // many were played.
  const sides = d.tricks_ns >= 0 && d.tricks_ew >= 0;
  const won = t.el.querySelector('.won');
  won.textContent = sides ? `${d.tricks_ns}–${d.tricks_ew}` : (d.tricks ? `${d.tricks} tr` : '');
  won.dataset.ns = sides ? d.tricks_ns : '';
  won.dataset.ew = sides ? d.tricks_ew : '';
  t.el.title = `Table ${d.id}: ${d.state}` + (d.state === 'lost' ? ` (${lostWhy(d)})` : '') + (d.board ? `, board ${d.board}` : '') +
    (sides ? `, tricks North-South ${d.tricks_ns}, East-West ${d.tricks_ew}` : d.tricks ? `, ${d.tricks} tricks` : '') +
    (d.alerts ? `, ${d.alerts} open alert(s)` : '') + unread(d) +
    (d.missed ? `, ${d.missed} event(s) missed that the console could not fetch (no control endpoint, the table did not answer, gone from its journal, or damaged in it; the log says which): check the table` : '') +
    (d.live_missed ? `, ${d.live_missed} released hand event(s) missed that the broadcasters' pages lack (the log says which)` : '');
  t.el.classList.toggle('missed', !!d.missed);
  drawElapsed(t);
}

// "lost" is a silent table or a device gone: a director walks to the table either way, but to look for
// a dead computer or an unplugged reader. The clock time does not go stale on a tile no longer updated.
function lostWhy(d) {
  if (!d.heard) return 'not heard since the console started';
  if (d.silent) return `silent: not heard since ${new Date(d.last_heard * 1000).toLocaleTimeString()}`;
  const gone = Object.entries(d.devices || {}).filter(([, h]) => h === 'lost').map(([name]) => name);
  return `device gone: ${gone.join(', ') || '?'}`;
}

// Zones that read nothing now (silent, or their device lost): the table's checks there are blind until
// they read again, which the tile's state alone does not say. Readers missing many replies (device.health)
// still read, but want a look before they read wrongly.
function unread(d) {
  const zones = Object.entries(d.devices || {}).filter(([, h]) => h === 'uncertain').map(([name]) => name);
  const missing = Object.entries(d.devices || {}).filter(([, h]) => h === 'missing replies').map(([name]) => name);
  return (zones.length ? `, not reading: ${zones.join(', ')}` : '') +
    (missing.length ? `, reader missing replies: ${missing.join(', ')}` : '');
}

function drawElapsed(t) {
  const d = t.data;
  const e = t.el.querySelector('.elapsed');
  if (!d.board_since || d.state === 'idle') { e.textContent = ''; return; }
  const secs = (d.board_ended || now()) - d.board_since;
  e.textContent = clock(secs);
  t.el.classList.toggle('slow', secs > d.allowance);
}

function setTile(tile) {
  tileFor(tile.id).data = tile;
  pendingTiles.add(tile.id);
  scheduleRender();
}

function isAlert(e) {
  return e && e.seq && (e.severity === 'alert' || (e.severity === 'warning' && (e.class === 'irregularity' || e.class === 'timing')));
}

const alertKey = (table, journal, seq) => `${table}#${journal || ''}#${seq}`;

function addAlert(e, fresh) {
  const key = alertKey(tableId(e), e.journal, e.seq);
  if (alerts.has(key)) return;
  const li = el('li', (fresh ? 'fresh' : '') + (e.replaced ? ' replaced' : ''));
  li.dataset.table = tableId(e);
  li.dataset.journal = e.journal || '';
  li.dataset.seq = e.seq;
  li.dataset.type = e.type;
  li.dataset.shownAt = String(Date.now() / 1000);
  li.dataset.publishedAt = String(e.time);
  const where = el('div');
  where.append(el('span', 'where', `Table ${e.table}` + (e.board ? `, board ${e.board}` : '')), document.createTextNode(' '),
    el('span', 'law', (e.laws || []).map((l) => `Law ${l}`).join(', ')), document.createTextNode(' '),
    el('span', 'when', new Date(e.time * 1000).toLocaleTimeString()));
  const ack = el('button', 'ack', 'Acknowledge');
  ack.addEventListener('click', () => acknowledge(e, ack));
  const more = el('button', 'more', 'Evidence');
  more.addEventListener('click', () => evidence(e, li));
  const actions = el('div', 'actions');
  // An alert of a journal since replaced (the table's state folder wiped, another computer there): the
  // table numbers other events with its seq now, so it cannot be acknowledged there; check it by hand.
  // Once handled there by hand, the director dismisses it (or every one of the table's) from the list.
  if (e.replaced) {
    const one = el('button', 'dismiss', 'Dismiss'), all = el('button', 'dismiss-all', `Dismiss all replaced of table ${e.table}`);
    one.addEventListener('click', () => dismiss({ table: tableId(e), journal: e.journal, seq: e.seq }, one));
    all.addEventListener('click', () => dismiss({ table: tableId(e) }, all));
    actions.append(el('span', 'replaced', `journal ${e.journal} replaced: cannot be acknowledged at the table`), one, all);
  } else {
    actions.append(ack, more);
  }
  li.append(where, el('div', 'msg', e.message || e.type), actions);
  alerts.set(key, { el: li, data: e });
  // Newest first.
  const list = $('alerts');
  const later = [...list.children].find((c) => Number(alerts.get(alertKey(c.dataset.table, c.dataset.journal, c.dataset.seq)).data.time) < e.time);
  list.insertBefore(li, later || null);
  $('alert-count').textContent = alerts.size;
  window.cardtableStats.shown++;
  if (fresh) beep();
}

function removeAlert(table, journal, seq) {
  // An alert heard from a daemon older than journal identities names none: the ack (newer) may name one.
  const key = alerts.has(alertKey(table, journal, seq)) ? alertKey(table, journal, seq) : alertKey(table, '', seq);
  const a = alerts.get(key);
  if (!a) return;
  a.el.remove();
  alerts.delete(key);
  $('alert-count').textContent = alerts.size;
}

async function acknowledge(e, button) {
  button.disabled = true;
  button.textContent = 'Sending…';
  button.title = '';
  let r;
  try {
    r = await api('/api/ack', e.journal ? { table: tableId(e), seq: e.seq, journal: e.journal } : { table: tableId(e), seq: e.seq });
  } catch (err) {
    // The console itself is unreachable (restarting, the network): the button stayed at "Sending…", disabled.
    r = { status: 0, data: { error: String(err) } };
  }
  // The alert goes when the table's own director.ack comes back on the stream, not before.
  if (r.status === 200) { button.textContent = 'Acknowledged'; return; }
  // The table's own refusal (already acknowledged, and by whom) says what happened; an endpoint and a
  // timeout do not: the alert is still open at the table, and the details are on the button's title.
  button.textContent = r.status === 0 ? 'The console did not answer: try again'
    : r.status === 502 ? 'The table did not answer: try again' : (r.data.error || 'failed');
  button.title = r.data.error || '';
  button.disabled = false;
}

async function dismiss(which, button) {
  button.disabled = true;
  const r = await api('/api/dismiss', which);
  // The alerts go when the console's update (to every director page) comes back on the stream.
  if (r.status !== 200) { button.textContent = r.data.error || 'failed'; button.disabled = false; }
}

async function evidence(e, li) {
  const r = await api(`/api/evidence?table=${encodeURIComponent(tableId(e))}&seq=${e.seq}` + (e.journal ? `&journal=${encodeURIComponent(e.journal)}` : ''));
  let box = li.querySelector('.evidence');
  if (!box) { box = el('div', 'evidence'); li.append(box); }
  box.textContent = (r.status === 200 ? evidenceLines(e, r.data) : [r.data.error || 'not available', ...evidenceLines(e, null)]).join('\n');
}

// What the message above cannot say, for the director to act on: where (the seats), what was seen and
// what was expected (the event's evidence: expected, observed, pockets, counts...) and, from the daemon's
// `evidence SEQ` reply (protocol 1.1, directors only), the cards named (card_message, card_evidence); the
// card detail wins where both name one thing ("misplaced: 2" -> the two cards). The reply's card_evidence
// is {} for an event that names no card: taken as the whole detail, it left the box repeating the message
// of every such alert (a wrong count, a lead out of turn, a dummy exchange, a slow board...).
function evidenceLines(e, reply) {
  const event = (reply && reply.event) || e;
  const lines = [];
  if (reply && reply.card_message && reply.card_message !== e.message) lines.push(reply.card_message);
  if (event.seats && event.seats.length) lines.push(`seats: ${event.seats.join(', ')}`);
  const fields = { ...(e.evidence || {}), ...(event.evidence || {}), ...((reply && reply.card_evidence) || {}) };
  for (const [k, v] of Object.entries(fields)) lines.push(`${k}: ${typeof v === 'object' ? JSON.stringify(v) : v}`);
  return lines;
}

const tableId = (e) => `${e.tournament}/${e.section}/${e.table}`;

let audio = null;
function beep() {
  if (!$('sound').checked) return;
  try {
    audio = audio || new AudioContext();
    const o = audio.createOscillator(), g = audio.createGain();
    o.frequency.value = 880; g.gain.value = 0.15;
    o.connect(g).connect(audio.destination);
    o.start(); o.stop(audio.currentTime + 0.25);
  } catch (err) { /* no audio on this device */ }
}

function summary() {
  const counts = {};
  for (const t of tiles.values()) if (t.data) counts[t.data.state] = (counts[t.data.state] || 0) + 1;
  $('venue-summary').textContent = `${tiles.size} tables · ` + Object.entries(counts).map(([k, v]) => `${v} ${k}`).join(' · ');
}

let selected = null;
async function openDetail(id) {
  const previous = selected;
  selected = id;
  if (previous && tiles.has(previous)) drawTile(previous);
  drawTile(id);
  const r = await api(`/api/table?table=${encodeURIComponent(id)}`);
  if (r.status !== 200) return;
  $('detail').hidden = false;
  $('detail-title').textContent = `Table ${id}`;
  const body = $('history').tBodies[0];
  body.replaceChildren();
  for (const h of r.data.history) {
    const tr = el('tr');
    tr.append(el('td', '', `Board ${h.board}`), el('td', '', clock(h.seconds)), el('td', h.slow ? 'slow' : '', h.slow ? 'slow' : ''));
    body.append(tr);
  }
  $('timeline').replaceChildren(...r.data.timeline.map(timelineItem));
}
function timelineItem(e) {
  const li = el('li', `sev-${e.severity}`);
  li.dataset.seq = e.seq || '';
  li.textContent = `${new Date(e.time * 1000).toLocaleTimeString()}  #${e.seq || ''}  ${e.message || e.type}`;
  return li;
}
// Newest first, by seq: a replayed event (a gap closed) comes after the later one that showed the gap.
function addToTimeline(e) {
  const list = $('timeline');
  const older = e.seq ? [...list.children].find((li) => li.dataset.seq && Number(li.dataset.seq) < e.seq) : list.firstChild;
  list.insertBefore(timelineItem(e), older || null);
}
$('detail-close').addEventListener('click', () => { $('detail').hidden = true; const p = selected; selected = null; if (p) drawTile(p); });

function startDirector() {
  $('director').hidden = false;
  $('sound-toggle').hidden = false;
  openDirectorStream();
  setInterval(() => { for (const t of tiles.values()) if (t.data) drawElapsed(t); }, 1000);
}

function openDirectorStream() {
  const source = new EventSource('/api/stream');
  watchStream(source, openDirectorStream, $('stream-state'));
  source.addEventListener('snapshot', (m) => {
    const s = JSON.parse(m.data);
    streamClock = s.now - Date.now() / 1000;
    for (const a of [...alerts.values()]) removeAlert(tableId(a.data), a.data.journal, a.data.seq);
    for (const t of s.tables) setTile(t);
    for (const a of s.alerts.slice().reverse()) addAlert(a, false);
  });
  source.addEventListener('update', (m) => {
    const u = JSON.parse(m.data);
    setTile(u.tile);
    for (const d of u.dismissed || []) removeAlert(d.table, d.journal, d.seq);  // a replaced journal's, dismissed by a director
    const e = u.event;
    if (!e) return;
    if (e.time) pendingLatencies.push(e.time);
    if (isAlert(e) && !u.closed) addAlert(e, true);  // closed: a replayed alert whose ack came first
    if (e.type === 'director.ack' && e.evidence) removeAlert(tableId(e), e.journal, Number(e.evidence.seq));
    if (selected === u.tile.id) addToTimeline(e);
  });
}

// ---- broadcaster -------------------------------------------------------------------------------------
const SUITS = [['♠', false], ['♥', true], ['♦', true], ['♣', false]];
const boards = new Map();

function handBlock(seat, hand) {
  const box = el('div', `hand ${seat}`);
  box.append(el('strong', '', { N: 'North', E: 'East', S: 'South', W: 'West' }[seat]), el('br'));
  hand.split('.').forEach((cards, i) => {
    box.append(el('span', SUITS[i][1] ? 'red' : '', SUITS[i][0]), document.createTextNode(` ${cards || '—'}`), el('br'));
  });
  return box;
}

function drawBoard(b) {
  if (!b.deal && !b.board) return;  // cards of a board not yet identified: shown once the deal comes
  const key = `${b.table}/${b.session}/${b.board}`;
  let card = boards.get(key);
  if (!card) {
    card = el('section', 'board');
    card.dataset.key = key;
    boards.set(key, card);
    $('boards').prepend(card);
  }
  card.replaceChildren(el('h3', '', `Table ${b.table.split('/').pop()} · board ${b.board}` + (b.event ? ` · ${b.event}` : '')));
  if (b.deal) {
    // PBN: "N:hand hand hand hand", clockwise from the first seat.
    const [first, rest] = b.deal.split(':');
    const order = ['N', 'E', 'S', 'W'];
    const start = order.indexOf(first);
    const diagram = el('div', 'diagram');
    rest.trim().split(/\s+/).forEach((h, i) => diagram.append(handBlock(order[(start + i) % 4], h)));
    diagram.append(el('div', 'mid', `Dealer ${b.dealer || '?'}\nVul ${b.vulnerable || '?'}`));
    card.append(diagram);
  }
  if (b.tricks && b.tricks.length) {
    const ol = el('ol', 'tricks');
    for (const t of b.tricks) ol.append(el('li', '', `${t.cards || ''}  → ${t.winner || '?'}`));
    card.append(ol);
  }
  if (b.double_dummy) card.append(ddTable(b.double_dummy));
}

// live.double_dummy: tricks for each declarer (rows N S E W) in each strain (NT S H D C), and par.
function ddTable(dd) {
  const box = el('div', 'dd-box');
  const table = el('table', 'dd');
  table.append(el('caption', '', 'Double dummy'));
  const head = el('tr');
  head.append(el('th', '', ''));
  for (const [sym, red] of [['NT', false], ...SUITS]) head.append(el('th', red ? 'red' : '', sym));
  table.append(head);
  for (const seat of ['N', 'S', 'E', 'W']) {
    if (!dd[seat]) continue;
    const tr = el('tr');
    tr.dataset.declarer = seat;
    tr.append(el('th', '', seat));
    for (const n of String(dd[seat]).split(' ')) tr.append(el('td', '', n));
    table.append(tr);
  }
  box.append(table);
  if (dd.par || dd.optimum_score) box.append(el('p', 'par', `Par: ${dd.par || ''}${dd.optimum_score ? ` (${dd.optimum_score})` : ''}`));
  return box;
}

function startBroadcaster() {
  $('broadcast').hidden = false;
  openLiveStream();
}

function openLiveStream() {
  const source = new EventSource('/api/live-stream');
  watchStream(source, openLiveStream, null);
  source.addEventListener('snapshot', (m) => { for (const b of JSON.parse(m.data).boards) drawBoard(b); });
  source.addEventListener('board', (m) => drawBoard(JSON.parse(m.data)));
}

start();
