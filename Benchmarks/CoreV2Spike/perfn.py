#!/usr/bin/env python3
"""Per-request cost by function: perfn.py CG_N CG_2N N [--inclusive] [top]
Runs callgrind_annotate on both files and prints (count(2N) - count(N)) / N per function."""
import subprocess, sys, re
a, b, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
inc = '--inclusive' in sys.argv
top = int(([x for x in sys.argv[4:] if x.isdigit()] or ['30'])[0])
def load(f):
    out = subprocess.run(['callgrind_annotate', '--threshold=100', '--auto=no', f'--inclusive={"yes" if inc else "no"}', f],
                         capture_output=True, text=True).stdout
    d = {}
    for line in out.splitlines():
        m = re.match(r'\s*([\d,]+) \([^)]*\)\s+(.*)$', line)
        if m and 'PROGRAM TOTALS' not in line:
            d[m.group(2)] = d.get(m.group(2), 0) + int(m.group(1).replace(',', ''))
    return d
da, db = load(a), load(b)
rows = sorted(((db.get(k, 0) - da.get(k, 0)) / n, k) for k in set(da) | set(db))
rows = [r for r in rows if abs(r[0]) >= 1][::-1][:top]
names = subprocess.run(['swift', 'demangle', '--simplified'], input='\n'.join(k for _, k in rows), capture_output=True, text=True).stdout.splitlines()
for (v, _), name in zip(rows, names):
    print(f'{v:10.0f}  {name[:170]}')
