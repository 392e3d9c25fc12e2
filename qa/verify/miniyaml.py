"""A small YAML reader for the subset suricata-verify's test.yaml files use.

Used by run.py only when PyYAML (python3-yaml) is not installed.  It reads block
mappings and sequences, flow [..] and {..} collections, plain, single- and
double-quoted scalars, | and > block scalars and comments, and resolves plain
scalars the way PyYAML does (YAML 1.1: yes/no/on/off are booleans, 010 is
octal, ~ is null) so both parsers give the runner the same values.  Not
supported: anchors, aliases, tags, multi-document streams, timestamps (kept as
strings).  test_run.py checks it against PyYAML's output.
"""

import re


class YamlError(ValueError):
	pass


_NULL = ("", "~", "null", "Null", "NULL")
_TRUE = ("yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON")
_FALSE = ("no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF")
_INT = re.compile(r"""^(?:[-+]?0b[0-1_]+
	|[-+]?0[0-7_]+
	|[-+]?(?:0|[1-9][0-9_]*)
	|[-+]?0x[0-9a-fA-F_]+
	|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$""", re.X)
_FLOAT = re.compile(r"""^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?
	|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?
	|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*
	|[-+]?\.(?:inf|Inf|INF)
	|\.(?:nan|NaN|NAN))$""", re.X)
_ESCAPES = {"0": "\0", "a": "\a", "b": "\b", "t": "\t", "\t": "\t", "n": "\n",
	    "v": "\v", "f": "\f", "r": "\r", "e": "\x1b", " ": " ", '"': '"',
	    "/": "/", "\\": "\\", "N": "\x85", "_": "\xa0"}


def _sexagesimal(s, conv):
	total = 0
	for part in s.split(":"):
		total = total * 60 + conv(part)
	return total


def resolve(s):
	"""A plain scalar's value, as PyYAML's default resolver gives it."""
	if s in _NULL:
		return None
	if s in _TRUE:
		return True
	if s in _FALSE:
		return False
	if _INT.match(s):
		v = s.replace("_", "")
		sign = -1 if v[0] == "-" else 1
		v = v.lstrip("+-")
		if v == "0":
			return 0
		if v.startswith("0b"):
			return sign * int(v[2:], 2)
		if v.startswith("0x"):
			return sign * int(v[2:], 16)
		if ":" in v:
			return sign * _sexagesimal(v, int)
		if v[0] == "0":
			return sign * int(v, 8)
		return sign * int(v)
	if _FLOAT.match(s):
		v = s.replace("_", "").lower()
		sign = -1.0 if v[0] == "-" else 1.0
		v = v.lstrip("+-")
		if v == ".inf":
			return sign * float("inf")
		if v == ".nan":
			return float("nan")
		if ":" in v:
			return sign * _sexagesimal(v, float)
		return sign * float(v)
	return s


# ---------------------------------------------------------------------------
# Inline text: quoted scalars, flow collections, comments.

def _double(s, i):
	"""Parse a double-quoted scalar starting at s[i] == '"'; (value, end)."""
	out = []
	i += 1
	while i < len(s):
		c = s[i]
		if c == '"':
			return "".join(out), i + 1
		if c == "\\":
			i += 1
			if i >= len(s):
				break
			e = s[i]
			if e in _ESCAPES:
				out.append(_ESCAPES[e])
			elif e in "xuU":
				n = {"x": 2, "u": 4, "U": 8}[e]
				out.append(chr(int(s[i + 1:i + 1 + n], 16)))
				i += n
			else:
				raise YamlError("bad escape \\%s" % e)
		else:
			out.append(c)
		i += 1
	raise YamlError("unterminated double-quoted string")


def _single(s, i):
	out = []
	i += 1
	while i < len(s):
		if s[i] == "'":
			if i + 1 < len(s) and s[i + 1] == "'":
				out.append("'")
				i += 2
				continue
			return "".join(out), i + 1
		out.append(s[i])
		i += 1
	raise YamlError("unterminated single-quoted string")


def _quoted(s, i):
	return _double(s, i) if s[i] == '"' else _single(s, i)


def strip_comment(s):
	"""Drop a trailing '# ...' that is not inside quotes or a plain word."""
	i = 0
	start_of_token = True
	while i < len(s):
		c = s[i]
		if c in "\"'" and start_of_token:
			_, i = _quoted(s, i)
			start_of_token = False
			continue
		if c == "#" and (i == 0 or s[i - 1] in " \t"):
			return s[:i].rstrip()
		start_of_token = c in " \t[{,:-?"
		i += 1
	return s.rstrip()


def _skip_ws(s, i):
	while i < len(s) and s[i] in " \t\n":
		i += 1
	return i


def _flow(s, i):
	"""Parse one flow node at s[i]; (value, end)."""
	i = _skip_ws(s, i)
	if i >= len(s):
		raise YamlError("unexpected end of flow collection")
	c = s[i]
	if c == "[":
		items = []
		i = _skip_ws(s, i + 1)
		while True:
			if i < len(s) and s[i] == "]":
				return items, i + 1
			v, i = _flow(s, i)
			items.append(v)
			i = _skip_ws(s, i)
			if i < len(s) and s[i] == ",":
				i = _skip_ws(s, i + 1)
			elif i >= len(s) or s[i] != "]":
				raise YamlError("expected ',' or ']' in flow sequence")
	if c == "{":
		d = {}
		i = _skip_ws(s, i + 1)
		while True:
			if i < len(s) and s[i] == "}":
				return d, i + 1
			k, i = _flow(s, i)
			i = _skip_ws(s, i)
			if i < len(s) and s[i] == ":":
				v, i = _flow(s, i + 1)
			else:
				v = None
			d[k] = v
			i = _skip_ws(s, i)
			if i < len(s) and s[i] == ",":
				i = _skip_ws(s, i + 1)
			elif i >= len(s) or s[i] != "}":
				raise YamlError("expected ',' or '}' in flow mapping")
	if c in "\"'":
		return _quoted(s, i)
	j = i
	while j < len(s) and s[j] not in ",]}":
		if s[j] == ":" and (j + 1 >= len(s) or s[j + 1] in " ,]}"):
			break
		j += 1
	return resolve(s[i:j].strip()), j


def inline_value(s):
	"""A value written on one line after 'key:' or '- '."""
	s = s.strip()
	if not s:
		return None
	if s[0] in "[{":
		v, end = _flow(s, 0)
		if s[end:].strip():
			raise YamlError("text after flow collection: %r" % s[end:])
		return v
	if s[0] in "\"'":
		v, end = _quoted(s, 0)
		if s[end:].strip():
			raise YamlError("text after quoted scalar: %r" % s[end:])
		return v
	if s[0] in "&*!|>%@`":
		raise YamlError("unsupported YAML construct %r" % s)
	return resolve(s)


def split_key(s):
	"""'key: value' -> (key, value text); None when s is not a mapping entry."""
	if s[:1] != "" and s[:1] in "\"'":
		k, i = _quoted(s, 0)
		rest = s[i:].lstrip()
		if rest.startswith(":") and (len(rest) == 1 or rest[1] in " \t"):
			return k, rest[1:]
		return None
	if s[:1] != "" and s[:1] in "[{":
		return None
	m = re.search(r":(?:[ \t]|$)", s)
	if not m:
		return None
	return resolve(s[:m.start()].strip()), s[m.end():]


# ---------------------------------------------------------------------------
# Block structure.

class _Parser:
	def __init__(self, text):
		self.lines = text.splitlines()
		self.i = 0

	def _next(self):
		"""Index of the next line with content, or None; skips comments."""
		j = self.i
		while j < len(self.lines):
			s = self.lines[j].strip()
			if s and not s.startswith("#"):
				return j
			j += 1
		return None

	@staticmethod
	def _indent(line):
		return len(line) - len(line.lstrip(" "))

	def node(self, indent):
		j = self._next()
		if j is None:
			return None
		line = self.lines[j]
		n = self._indent(line)
		if n < indent:
			return None
		body = strip_comment(line.strip())
		self.i = j
		if body == "-" or body.startswith("- "):
			return self.sequence(n)
		if split_key(body) is not None:
			return self.mapping(n)
		return self.scalar_lines(n)

	def scalar_lines(self, n):
		"""A plain or flow scalar that may run over several lines."""
		parts = []
		while True:
			j = self._next()
			if j is None or self._indent(self.lines[j]) < n:
				break
			parts.append(strip_comment(self.lines[j].strip()))
			self.i = j + 1
		return inline_value(" ".join(parts))

	def value(self, text, n):
		"""The value after 'key:' or '- ' on a line at indent n."""
		text = strip_comment(text.strip())
		if text[:1] != "" and text[:1] in "|>":
			return self.block_scalar(text, n)
		if text[:1] != "" and text[:1] in "[{":
			# A flow collection may continue on the following lines.
			while True:
				try:
					v, end = _flow(text, 0)
					break
				except YamlError:
					j = self._next()
					if j is None:
						raise
					text += " " + strip_comment(self.lines[j].strip())
					self.i = j + 1
			if text[end:].strip():
				raise YamlError("text after flow collection: %r" % text[end:])
			return v
		if text:
			# A scalar may fold over more-indented lines (plain, or a
			# quoted one not closed yet): line breaks read as spaces.
			while True:
				j = self._next()
				if j is None or self._indent(self.lines[j]) <= n:
					break
				if text[0] in "\"'" and self._closed(text):
					break
				text += " " + strip_comment(self.lines[j].strip())
				self.i = j + 1
			return inline_value(text)
		j = self._next()
		if j is None:
			return None
		m = self._indent(self.lines[j])
		body = self.lines[j].strip()
		if m > n:
			return self.node(m)
		if m == n and (body == "-" or body.startswith("- ")):
			return self.sequence(m)	# "key:\n- item" at the key's indent
		return None

	@staticmethod
	def _closed(text):
		try:
			_quoted(text, 0)
			return True
		except YamlError:
			return False

	def block_scalar(self, header, n):
		style = header[0]
		chomp = "+" if "+" in header else ("-" if "-" in header else "")
		lines = []
		width = None
		while self.i < len(self.lines):
			line = self.lines[self.i]
			if line.strip():
				m = self._indent(line)
				if width is None:
					if m <= n:
						break
					width = m
				elif m < width:
					break
				lines.append(line[width:])
			else:
				lines.append("")
			self.i += 1
		trailing = 0
		while lines and lines[-1] == "":
			lines.pop()
			trailing += 1
		if style == "|":
			text = "\n".join(lines)
		else:
			text = ""
			for k, l in enumerate(lines):
				if k == 0:
					text = l
				elif l == "" or lines[k - 1] == "":
					text += "\n" + l if l else ""
				elif l.startswith(" ") or lines[k - 1].startswith(" "):
					text += "\n" + l
				else:
					text += " " + l
		if not lines:
			return ""
		if chomp == "-":
			return text
		if chomp == "+":
			return text + "\n" * (1 + trailing)
		return text + "\n"

	def mapping(self, n):
		d = {}
		while True:
			j = self._next()
			if j is None:
				break
			line = self.lines[j]
			m = self._indent(line)
			if m < n:
				break
			if m > n:
				raise YamlError("line %d: bad indentation" % (j + 1))
			body = line.strip()
			if body == "-" or body.startswith("- "):
				break
			kv = split_key(strip_comment(body))
			if kv is None:
				raise YamlError("line %d: expected 'key: value'" % (j + 1))
			self.i = j + 1
			d[kv[0]] = self.value(kv[1], n)
		return d

	def sequence(self, n):
		items = []
		while True:
			j = self._next()
			if j is None:
				break
			line = self.lines[j]
			m = self._indent(line)
			body = line.strip()
			if m != n or not (body == "-" or body.startswith("- ")):
				if m > n:
					raise YamlError("line %d: bad indentation" % (j + 1))
				break
			rest = body[1:].lstrip(" ")
			if not rest or rest.startswith("#"):
				self.i = j + 1
				items.append(self.value("", n))
				continue
			k = len(line) - len(rest)
			if split_key(strip_comment(rest)) is not None and rest[:1] not in ("[", "{"):
				# "- key: v" opens a mapping indented where its key starts.
				self.lines[j] = " " * k + rest
				self.i = j
				items.append(self.mapping(k))
			else:
				self.i = j + 1
				items.append(self.value(rest, n))
		return items


def load(text):
	"""Parse one YAML document of the supported subset."""
	p = _Parser(text)
	v = p.node(0)
	if p._next() is not None:
		raise YamlError("line %d: unexpected content" % (p._next() + 1))
	return v
