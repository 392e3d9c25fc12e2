#!/usr/bin/env python3
"""Extract the fast pattern of every active ET Open rule into a pattern file.

One pattern per line, hex-encoded, folded to lower case: the prototype DFA
matches folded bytes (nocase by folding), so two patterns that differ only in
case are one DFA key.  Rule selection follows the issue text: the explicit
`fast_pattern` content of a rule, else its longest (non-negated) content.

usage: extract-patterns.py OUT.hex RULEFILE...
"""
import sys


def split_options(body):
    """Split 'k:v; k2; ...' on ';' outside quotes, honouring backslash escapes."""
    opts, cur, inq, esc = [], [], False, False
    for ch in body:
        if esc:
            cur.append('\\' + ch)
            esc = False
            continue
        if ch == '\\':
            esc = True
            continue
        if ch == '"':
            inq = not inq
        if ch == ';' and not inq:
            opts.append(''.join(cur).strip())
            cur = []
            continue
        cur.append(ch)
    tail = ''.join(cur).strip()
    if tail:
        opts.append(tail)
    return opts


def parse_content(val):
    """Decode a content value: "abc|0d 0a|\\"" -> bytes; None if malformed."""
    val = val.strip()
    neg = val.startswith('!')
    if neg:
        val = val[1:].strip()
    if len(val) < 2 or val[0] != '"' or val[-1] != '"':
        return None, neg
    s = val[1:-1]
    out = bytearray()
    i, inhex, hexbuf = 0, False, ''
    while i < len(s):
        ch = s[i]
        if inhex:
            if ch == '|':
                inhex = False
                if hexbuf.strip():
                    try:
                        out += bytes.fromhex(hexbuf)
                    except ValueError:
                        return None, neg
                hexbuf = ''
            else:
                hexbuf += ch
            i += 1
            continue
        if ch == '\\' and i + 1 < len(s):
            out += s[i + 1].encode('latin-1', 'replace')
            i += 2
            continue
        if ch == '|':
            inhex = True
            i += 1
            continue
        out += ch.encode('utf-8')
        i += 1
    if inhex:
        return None, neg
    return bytes(out), neg


def rule_fast_pattern(line):
    lp = line.find('(')
    rp = line.rfind(')')
    if lp < 0 or rp < lp:
        return None
    contents = []          # [bytes, negated, fp_spec or None]
    for opt in split_options(line[lp + 1:rp]):
        key, _, val = opt.partition(':')
        key = key.strip()
        if key == 'content':
            data, neg = parse_content(val)
            if data is None:
                return None
            contents.append([data, neg, None])
        elif key == 'fast_pattern' and contents:
            # fast_pattern applies to the content just before it.
            contents[-1][2] = val.strip() or 'plain'
    cand = [c for c in contents if c[0] and not c[1]]
    if not cand:
        return None
    for data, neg, fp in cand:
        if fp is None:
            continue
        if ',' in fp:       # old form fast_pattern:offset,length chops
            off, ln = (int(x) for x in fp.split(','))
            data = data[off:off + ln]
        return data or None
    return max(cand, key=lambda c: len(c[0]))[0]


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    rules = raw = 0
    pats = {}
    for path in sys.argv[2:]:
        with open(path, encoding='utf-8', errors='replace') as f:
            for line in f:
                line = line.strip()
                if not line or line.startswith('#'):
                    continue
                rules += 1
                fp = rule_fast_pattern(line)
                if fp is None:
                    continue
                raw += 1
                pats.setdefault(fp.lower(), None)
    with open(sys.argv[1], 'w') as out:
        for p in pats:
            out.write(p.hex() + '\n')
    lens = [len(p) for p in pats]
    print('rules %d, with a fast pattern %d, unique folded patterns %d, '
          'bytes %d, longest %d' % (rules, raw, len(pats), sum(lens), max(lens)))


if __name__ == '__main__':
    main()
