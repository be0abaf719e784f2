/**
 * Vega-Lite spec -> SVG string in Node, no canvas (renderer 'none' + toSVG; toolchain.md gotcha 13).
 * Data is inline, so vega's loader (fetch) is never used.
 */
import type {TopLevelSpec} from 'vega-lite'

type Vega = typeof import('vega')
type VegaLite = typeof import('vega-lite')
let libs: Promise<[Vega, VegaLite]> | undefined

export async function renderSvg(spec: TopLevelSpec): Promise<string> {
  libs ??= Promise.all([import('vega'), import('vega-lite')])
  const [vega, vl] = await libs
  // Warnings of the compiler (e.g. merged legends) are not the user's concern; errors still throw.
  const logger = vega.logger(vega.Error)
  const compiled = vl.compile({...spec, config: {font: 'DejaVu Sans', ...spec.config}} as TopLevelSpec, {logger}).spec
  const view = new vega.View(vega.parse(compiled), {renderer: 'none', logger})
  try {
    return await view.toSVG()
  } finally {
    view.finalize()
  }
}
