"""cgparse - read what `make bench` needs from a callgrind output file.

Only the Ir event (callgrind's default) is read.  Names are compressed in
the format: "fn=(12) name" defines id 12, a later "fn=(12)" refers to it;
the same for ob=, cfn= and cob=.  The line after "calls=N POS" is the call's
inclusive cost.
"""
import re

_NAME = re.compile(r"\((\d+)\)(?: (.*))?$")


class Profile:
    def __init__(self, path):
        self.total = 0
        self.fn_name = {}       # fn id -> name
        self.fn_object = {}     # fn id -> object name (where its code is)
        self.self_cost = {}     # fn id -> exclusive Ir
        self.calls = {}         # (caller id, callee id) -> [count, inclusive Ir]
        self._parse(path)

    def _parse(self, path):
        ob_name = {}
        cur_ob = cur_fn = None
        pending_call = None     # (callee id, count) waiting for its cost line
        callee = None
        with open(path, errors="replace") as f:
            for line in f:
                c = line[0]
                if c.isdigit() or c in "+-*":
                    cost = line.split()
                    ir = int(cost[1]) if len(cost) > 1 else 0
                    if pending_call is not None:
                        key = (cur_fn, pending_call[0])
                        entry = self.calls.setdefault(key, [0, 0])
                        entry[0] += pending_call[1]
                        entry[1] += ir
                        pending_call = None
                    else:
                        self.self_cost[cur_fn] = self.self_cost.get(cur_fn, 0) + ir
                    continue
                if line.startswith("fn="):
                    cur_fn = self._name(line[3:], self.fn_name)
                    self.fn_object.setdefault(cur_fn, cur_ob)
                elif line.startswith("ob="):
                    cur_ob = ob_name[self._name(line[3:], ob_name)]
                elif line.startswith("cob="):
                    self._name(line[4:], ob_name)
                elif line.startswith("cfn="):
                    callee = self._name(line[4:], self.fn_name)
                elif line.startswith("calls="):
                    pending_call = (callee, int(line[6:].split()[0]))
                elif line.startswith(("summary:", "totals:")):
                    self.total = max(self.total, int(line.split()[1]))

    @staticmethod
    def _name(text, table):
        m = _NAME.match(text.strip())
        if not m:                       # uncompressed name
            name = text.strip()
            table.setdefault(name, name)
            return name
        ident = int(m.group(1))
        if m.group(2) is not None:
            table[ident] = m.group(2)
        return ident

    def object_of(self, fn):
        return self.fn_object.get(fn) or ""

    def entry_cost(self, in_object):
        """Ir of every call from outside IN_OBJECT (a predicate on object
        names) into it: the object's inclusive share of the run."""
        total = 0
        for (caller, callee), (_, ir) in self.calls.items():
            if in_object(self.object_of(callee)) and not in_object(self.object_of(caller)):
                total += ir
        return total

    def object_self(self, in_object):
        """Exclusive Ir of all code in objects IN_OBJECT accepts."""
        return sum(ir for fn, ir in self.self_cost.items()
                   if in_object(self.object_of(fn)))

    def function(self, name):
        """(self Ir, inclusive Ir, times called) of the function NAME."""
        ids = [i for i, n in self.fn_name.items() if n == name]
        self_ir = sum(self.self_cost.get(i, 0) for i in ids)
        incl = self_ir + sum(ir for (caller, _), (_, ir) in self.calls.items()
                             if caller in ids)
        called = sum(cnt for (_, callee), (cnt, _) in self.calls.items()
                     if callee in ids)
        return self_ir, incl, called

    def top_functions(self, count=15):
        """The COUNT functions with the most exclusive Ir: (name, object, Ir)."""
        ranked = sorted(self.self_cost.items(), key=lambda kv: -kv[1])[:count]
        return [(self.fn_name.get(i, str(i)), self.object_of(i), ir) for i, ir in ranked]
