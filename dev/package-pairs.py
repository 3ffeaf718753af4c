#!/usr/bin/env python3
"""Prints every pair of packages under io.quotaflow that use each other (a two-way import).

Counts code only: imports and fully qualified names, not comments, javadoc or string literals.
Run from the repository root:  python3 dev/package-pairs.py [src/main/java]
PackageDependencyTest checks the same in `mvn verify`.
"""
import os, re, sys, collections
root = sys.argv[1] if len(sys.argv) > 1 else 'src/main/java'
ref = re.compile(r'\bio\.quotaflow((?:\.[a-z][a-z0-9_]*)*)\.[A-Z]')
deps = collections.defaultdict(set)
for d, _, files in os.walk(os.path.join(root, 'io/quotaflow')):
    for f in files:
        if not f.endswith('.java'):
            continue
        text = open(os.path.join(d, f), encoding='utf-8').read()
        pkg = re.search(r'^package ([\w.]+);', text, re.M).group(1)
        # comments, javadoc and string literals do not count: only code (imports, qualified names)
        body = re.sub(r'/\*.*?\*/|//[^\n]*|"(?:[^"\\\n]|\\.)*"', '', text, flags=re.S)
        for m in ref.finditer(body):
            target = 'io.quotaflow' + m.group(1)
            if target != pkg:
                deps[pkg].add(target)
pairs = sorted({tuple(sorted((a, b))) for a in deps for b in deps[a] if a in deps.get(b, ())})
for a, b in pairs:
    print(f'{a} <-> {b}')
print(f'{len(pairs)} two-way pair(s) among {len(deps)} packages')
