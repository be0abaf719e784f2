/**
 * Min/max-per-bucket downsampling for long series (issue 3: series longer than a few thousand
 * points are downsampled before charting). Pure. The points must be ordered by x. The result
 * keeps the order, the first and the last point, and the minimum and maximum of every bucket,
 * so peaks and dips stay visible; it never has more than `maxPoints` points.
 */
export const MAX_CHART_POINTS = 2000

export function downsampleMinMax<T>(points: readonly T[], y: (p: T) => number, maxPoints = MAX_CHART_POINTS): T[] {
  if (points.length <= maxPoints) return points.slice()
  if (maxPoints < 4) throw new Error('downsampleMinMax: maxPoints must be at least 4')
  const last = points.length - 1
  // Interior buckets over points[1 .. last-1]; the first and last points are always kept.
  const buckets = Math.floor((maxPoints - 2) / 2)
  const interior = last - 1
  const out: T[] = [points[0]]
  for (let b = 0; b < buckets; b++) {
    const start = 1 + Math.floor((b * interior) / buckets)
    const end = 1 + Math.floor(((b + 1) * interior) / buckets)
    if (end <= start) continue
    let iMin = start
    let iMax = start
    for (let i = start + 1; i < end; i++) {
      const v = y(points[i])
      if (v < y(points[iMin])) iMin = i
      if (v > y(points[iMax])) iMax = i
    }
    if (iMin === iMax) out.push(points[iMin])
    else if (iMin < iMax) out.push(points[iMin], points[iMax])
    else out.push(points[iMax], points[iMin])
  }
  out.push(points[last])
  return out
}

/** Downsample each group (series) of rows separately, keeping the groups' order. */
export function downsampleGroups<T>(rows: readonly T[], key: (p: T) => string, y: (p: T) => number, maxPointsPerGroup = MAX_CHART_POINTS): T[] {
  const groups = new Map<string, T[]>()
  for (const r of rows) {
    const k = key(r)
    let g = groups.get(k)
    if (!g) groups.set(k, (g = []))
    g.push(r)
  }
  return [...groups.values()].flatMap(g => downsampleMinMax(g, y, maxPointsPerGroup))
}
