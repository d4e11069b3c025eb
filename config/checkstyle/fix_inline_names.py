#!/usr/bin/env python3
"""Replaces inline fully qualified class names (the inlineFullyQualifiedName rule of checkstyle.xml) by imports.

Usage: python3 config/checkstyle/fix_inline_names.py FILE.java...
Skips string literals, comments, package and import lines; leaves a name qualified (and says so) where its simple
name is already imported from elsewhere, declared in the file, or a class of the file's own package; sorts the
non-static imports. Compile and run the tests afterwards, then drop the file's line from suppressions.xml.
"""
import os, re, sys
ROOT = r'(?:(?:java|javax|jdk|dev|org|com|net|me|io)\.(?:[a-z_][a-z0-9_]*\.)+|picocli\.)'
PAT = re.compile(r'(?<![\w.])(' + ROOT + r')([A-Z]\w*)')
def code_spans(line):
    # yields (start,end) of code outside string/char literals and // comments
    spans=[]; i=0; start=0; n=len(line)
    while i<n:
        c=line[i]
        if c=='"':
            spans.append((start,i)); j=i+1
            while j<n and line[j]!='"':
                j+= 2 if line[j]=='\\' else 1
            i=j+1; start=i; continue
        if c=="'":
            spans.append((start,i)); j=i+1
            while j<n and line[j]!="'":
                j+= 2 if line[j]=='\\' else 1
            i=j+1; start=i; continue
        if line.startswith('//',i):
            spans.append((start,i)); return spans
        i+=1
    spans.append((start,n)); return spans
for path in sys.argv[1:]:
    src=open(path).read().split('\n')
    pkg=next((l.split()[1].rstrip(';') for l in src if l.startswith('package ')),'')
    imports={}
    for l in src:
        m=re.match(r'import (?!static)([\w.]+)\.(\w+);',l)
        if m: imports[m.group(2)]=m.group(1)+'.'+m.group(2)
    declared=set(re.findall(r'\b(?:class|interface|enum|record)\s+(\w+)', '\n'.join(src)))
    new_imports=set(); out=[]; incomment=False; skipped=[]
    for l in src:
        s=l.strip()
        if incomment or s.startswith('/*') or s.startswith('*'):
            if '/*' in l: incomment=True
            if '*/' in l: incomment=False
            out.append(l); continue
        if s.startswith('import ') or s.startswith('package '):
            out.append(l); continue
        res=''; last=0
        for a,b in code_spans(l):
            res+=l[last:a]; seg=l[a:b]
            def rep(m):
                full=m.group(1)+m.group(2); name=m.group(2)
                pkgpart=m.group(1)[:-1]
                # nested type: pkg may end with a capitalised type path: we only match lower-case packages, fine
                if name in imports and imports[name]!=full: skipped.append(full); return m.group(0)
                if name in declared: skipped.append(full); return m.group(0)
                if pkgpart!=pkg and os.path.exists(os.path.join(os.path.dirname(path), name + '.java')):
                    skipped.append(full); return m.group(0)
                if pkgpart!=pkg and pkgpart!='java.lang':
                    imports[name]=full; new_imports.add(full)
                return name
            res+=PAT.sub(rep,seg); last=b
        res+=l[last:]
        out.append(res)
    # insert imports in sorted position among existing non-static imports
    if new_imports:
        idx=[i for i,l in enumerate(out) if l.startswith('import ') and not l.startswith('import static')]
        existing=[out[i] for i in idx]
        allimp=sorted(set(existing)|{'import %s;'%x for x in new_imports})
        if idx:
            keep=[l for i,l in enumerate(out) if i not in set(idx)]
            at=idx[0]
            out=keep[:at]+allimp+keep[at:]
        else:
            pi=next(i for i,l in enumerate(out) if l.startswith('package '))
            sidx=[i for i,l in enumerate(out) if l.startswith('import static')]
            at=(sidx[-1] if sidx else pi)+1
            out=out[:at]+['']+allimp+out[at:]
    open(path,'w').write('\n'.join(out))
    if skipped: print(path, 'skipped', sorted(set(skipped)))
