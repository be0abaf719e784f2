// The live page of `pts serve`: polls GET api/state (the run list, and the selected run's row and
// detail from the same read of its files) and redraws what changed. Read-only: it only sends GETs.
'use strict'

const POLL_MS = 2000
const STATE_WORDS = {running: 'Running', stopped: 'Stopped', interrupted: 'Interrupted', failed: 'Failed', complete: 'Complete', unknown: 'Not known', unreadable: 'Cannot be read'}
// '' is a run directory served itself (pts serve <run>)
let selected = location.hash.length > 1 ? decodeURIComponent(location.hash.slice(1)) : null
let lastCharts = ''
let lastList = ''
let views = []

const esc = s => String(s ?? '').replace(/[&<>"']/g, c => ({'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;'}[c]))
const when = iso => (iso ? new Date(iso).toLocaleString() : '')

function roundText(r) {
  if (r.round === null) return ''
  return r.maxRounds ? `${r.round} of at most ${r.maxRounds}` : String(r.round)
}

function etaText(r) {
  if (!r.eta) return ''
  return r.eta.notCounted.length > 0 ? `${r.eta.text} (plus ${r.eta.notCounted.join(', ')}, whose length depends on the device)` : r.eta.text
}

function listHtml(state) {
  if (state.groups.length === 0) return `<p class="hint">No run directory found under ${esc(state.root)} yet. This page shows each one as soon as pts creates it.</p>`
  return state.groups.map(g => {
    const name = g.folder === '' ? 'the served folder' : g.folder
    const title = g.kind === 'fleet' ? `Fleet ${name}` : g.fleet !== null ? `Fleet ${g.fleet === '' ? 'in the served folder' : g.fleet}: ${g.folder.slice(g.fleet === '' ? 0 : g.fleet.length + 1)}`
      : g.kind === 'suite' ? `Suite ${name}` : g.folder === '' ? 'Runs in the served folder' : `Folder ${g.folder}`
    const rows = g.runs.map(r => `<tr class="run${r.id === selected ? ' selected' : ''}" data-run-id="${esc(r.id)}" data-state="${esc(r.state)}" tabindex="0">
      <td>${esc(r.path.split('/').pop())}</td><td>${esc(r.testName ?? '')}</td><td>${esc(r.device ?? '')}${r.model ? `<br><small>${esc(r.model)}${r.serial ? ` · ${esc(r.serial)}` : ''}</small>` : ''}</td>
      <td class="state state-${esc(r.state)}">${esc(STATE_WORDS[r.state] ?? r.state)}</td><td>${esc(r.phase ?? '')}</td>
      <td class="round">${esc(roundText(r))}</td><td class="steps">${r.steps}</td><td>${esc(etaText(r))}</td><td>${esc(r.verdict)}</td></tr>`).join('')
    return `<h2>${esc(title)}</h2><table><thead><tr><th>Run</th><th>Test</th><th>Device</th><th>State</th><th>Phase</th><th>Round</th><th>Test points</th><th>Time left</th><th>Steady state so far</th></tr></thead><tbody>${rows}</tbody></table>`
  }).join('')
}

function factsHtml(r) {
  const facts = [
    ['State', `<span class="state state-${esc(r.state)}" data-state="${esc(r.state)}">${esc(r.stateText)}</span>`],
    ...(r.resumeCommand ? [['To continue it', `<code class="resume">${esc(r.resumeCommand)}</code>`]] : []),
    ['Test', esc(r.testName ?? '')], ['Device', esc(r.device ?? '')], ['Host', esc(r.host ?? '')],
    ['Phase', esc(r.phase ? `${r.phase}, phase ${r.phaseNumber} of ${r.phaseCount}` : '')],
    ['Round', `<span class="round">${esc(roundText(r))}</span>`], ['Test points stored', `<span class="steps">${r.steps}</span>`],
    ['Time left', esc(etaText(r) || (r.state === 'running' ? 'not known' : 'none: the run is not running'))],
    ['Steady state so far', esc(r.verdict)], ['Started', esc(when(r.startedAt))], ['Last test point stored', esc(r.updatedAt ? when(r.updatedAt) : 'none yet')],
    ['Folder', esc(r.path)],
  ]
  return `<h2>${esc(r.id || r.path)}</h2><dl class="facts">${facts.map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`).join('')}</dl>`
}

const CONV_WORDS = {steady: 'steady state reached', 'not-steady': 'not steady in the window', 'not-yet': 'not enough complete rounds yet'}

function convergenceHtml(detail) {
  if (!detail || detail.convergence.length === 0) return ''
  return `<h2>Steady-state convergence</h2><ul>${detail.convergence.map(c => {
    const rounds = Math.max(0, ...c.variables.map(v => v.values.length))
    const win = c.window ? `; measurement window rounds ${c.window.fromRound}-${c.window.toRound}` : ''
    const wait = rounds === 0 ? ' Its chart appears when round 1 is complete.' : ''
    return `<li>${esc(c.title)}: ${esc(CONV_WORDS[c.status] ?? c.status)} (${rounds} complete round${rounds === 1 ? '' : 's'}, the window is ${c.windowRounds} rounds${esc(win)}).${wait}</li>`
  }).join('')}</ul>`
}

function lastPointsHtml(detail) {
  if (!detail || detail.points.length === 0) return ''
  const last = detail.points.slice(-8).reverse()
  return `<h2>Last test points stored</h2><table class="points"><thead><tr><th>#</th><th>Test point</th><th>Finished</th><th>IOPS</th><th>MB/s</th><th>Mean response time (ms)</th></tr></thead><tbody>${
    last.map(p => `<tr><td>${p.n}</td><td>${esc(p.what)}</td><td>${esc(new Date(p.finishedAt).toLocaleTimeString())}</td><td>${Math.round(p.iops).toLocaleString()}</td><td>${p.mbps.toFixed(1)}</td><td>${p.latMeanMs.toFixed(3)}</td></tr>`).join('')}</tbody></table>`
}

async function drawCharts(el, charts) {
  for (const v of views) v.finalize()
  views = []
  el.innerHTML = charts.map((c, k) => `<div class="chart"><h3>${esc(c.title)}</h3><div id="chart-${k}"></div></div>`).join('')
  for (const [k, c] of charts.entries()) {
    const spec = vegaLite.compile(c.spec).spec
    const view = new vega.View(vega.parse(spec), {renderer: 'svg', container: `#chart-${k}`, hover: true})
    views.push(view)
    await view.runAsync()
  }
}

async function render(state) {
  document.getElementById('where').textContent = state.root
  const list = listHtml(state)
  if (list !== lastList) {
    // redrawn only when something in it changed (a click or the keyboard focus is not lost in between)
    lastList = list
    document.getElementById('list').innerHTML = list
  }
  for (const tr of document.querySelectorAll('tr.run:not([data-wired])')) {
    tr.dataset.wired = '1'
    const pick = () => { selected = tr.dataset.runId ?? ''; location.hash = `#${encodeURIComponent(selected)}`; lastCharts = ''; lastList = ''; void poll() }
    tr.addEventListener('click', pick)
    tr.addEventListener('keydown', e => { if (e.key === 'Enter') pick() })
  }
  const d = document.getElementById('detail')
  if (state.selected) {
    const s = state.selected
    let facts = d.querySelector('.facts-wrap')
    let charts = d.querySelector('.charts')
    if (!facts || !charts) {
      d.innerHTML = '<div class="facts-wrap"></div><div class="conv"></div><div class="charts"></div><div class="last"></div>'
      facts = d.querySelector('.facts-wrap'); charts = d.querySelector('.charts'); lastCharts = ''
    }
    facts.innerHTML = factsHtml(s.row)
    d.querySelector('.conv').innerHTML = convergenceHtml(s.detail)
    d.querySelector('.last').innerHTML = lastPointsHtml(s.detail)
    const c = s.detail ? s.detail.charts : []
    const key = JSON.stringify(c)
    if (key !== lastCharts) {
      lastCharts = key
      if (c.length === 0) charts.innerHTML = '<p class="hint">No test point stored yet.</p>'
      else await drawCharts(charts, c)
    }
    d.dataset.runId = s.row.id
  } else if (selected !== null) {
    d.innerHTML = `<p class="hint">The run ${esc(selected)} is not under the served folder (any more).</p>`
  }
  document.getElementById('updated').textContent = `Updated ${new Date(state.at).toLocaleTimeString()}`
  document.body.dataset.updated = state.at
}

let busy = false
let again = false
async function poll() {
  if (busy) { again = true; return }
  busy = true
  try {
    const res = await fetch(`api/state${selected !== null ? `?run=${encodeURIComponent(selected)}` : ''}`, {cache: 'no-store'})
    if (!res.ok) throw new Error(`${res.status} ${await res.text()}`)
    await render(await res.json())
  } catch (e) {
    document.getElementById('updated').textContent = `Cannot reach pts serve: ${e.message}`
  } finally {
    busy = false
  }
  if (again) { again = false; void poll() }
}

void poll()
setInterval(() => void poll(), POLL_MS)
