"""The search problem: initial state, successors, goal and priority, over `Moves`' states.

Only one color moves from a state (the last one moved until it is complete, then the most
constrained; with the lookahead, the one whose moves leave the fewest states that pass the
checks), so no state is reached twice by reordering moves. Successors pass through
`settle`: the checks that are on (the registry `flowsat.search.checks`, cheapest first), then
any forced move, applied in place (fast-forward) and checked again, so a chain of forced moves
never enters the queue and is dropped whole when one of its states fails a check.

Every deduction is sound in the rule mode it runs in: it prunes a state only when no solution
extends it, and forces a move only when every solution extending the state makes it.
"""

from __future__ import annotations

from flowsat.puzzle.rules import DEFAULT_RULES, Rules
from flowsat.search.board import Board, GraphBoard
from flowsat.search.checks import REGISTRY
from flowsat.search.links import NONE_SURE, GraphLinks, Links
from flowsat.search.options import STATS, SearchOptions, for_kinds
from flowsat.search.state import Moves, State


class FlowProblem(Moves):
    """A puzzle as a search problem over `State`s (colors are numbers 0..k-1)."""

    def __init__(self, board: Board, starts: list[int], goals: list[int], priority: list[int],
                 options: SearchOptions, rules: Rules = DEFAULT_RULES, user_order: bool = False,
                 hint: dict[int, int] | None = None):
        switches = for_kinds(options, board.kinds, rules.fill_all)  # what holds here
        # with shortcuts (cells may stay empty), paths that touch themselves are not searched
        # (`flowsat.search.checks.empty`); a hint may fix a cell a shortcut would skip
        touch = rules.self_touch and not (switches.shortcuts and not hint)
        super().__init__(board, starts, goals, priority, Rules(touch, rules.fill_all),
                         user_order, hint)
        self.sw = switches
        self.stats = dict.fromkeys(STATS, 0)
        links = GraphLinks if isinstance(board, GraphBoard) else Links
        self.links = links(self, switches.squares, switches.corners, switches.triangles)
        # the checks that are on, as (function, stat) pairs
        self.active = [(check.check(self), check.stat) for check in REGISTRY
                       if check.check and getattr(switches, check.name)]
        self.to_fill = board.all if self.fill_all else 0  # the cells a goal leaves not free
        self.expanded = 0  # the states expanded so far (see `expand`)

    # --- the problem ---------------------------------------------------------------------

    def initial(self) -> State | None:
        """The board with only the dots, settled (None when it fails a check at once)."""
        return self.settle(self.start())

    def is_goal(self, s: State) -> bool:
        """Every flow complete and (fill-all) no cell free."""
        return s.done == self.all_done and not s.free & self.to_fill

    def priority_of(self, s: State) -> int:
        """Cost so far plus what is left (lower is expanded first): the free cells with
        fill-all, else the steps each flow not complete needs at least (`apart`)."""
        if self.fill_all:
            return s.g + s.free.bit_count()
        heads, done = s.heads, s.done
        return s.g + sum(steps[heads[c]] for c, steps in enumerate(self.apart)
                         if not done >> c & 1)

    def expand(self, s: State) -> list[State]:
        """The settled successors of s: each move of the chosen color (or, when forced moves
        go through the queue, the forced move alone)."""
        if self.sw.queue_always:
            if self.sw.links:
                self.links.sure = self.links.propagate(s) or NONE_SURE
            child = s.child()
            made = self.force(child)
            if made is not None:
                return [child] if made and self.checks(child) else []
        self.expanded += 1
        if 0 < self.sw.lookahead <= self.expanded and not self.user_order:  # (--order: the
            return self.fewest_children(s)  # user's color)
        c = self.choose(s)
        if c < 0:  # every flow is complete, yet some cell is free
            return []
        return self.children(s, c)

    def children(self, s: State, c: int) -> list[State]:
        """The settled successors of s by a move of color c."""
        children = []
        nbrs = self.board.nbrs
        legal = self.legal(s, c)
        for x in self.board.nbr_list[s.heads[c]]:
            if not legal >> x & 1:
                continue
            child = s.child()
            self.apply(child, c, x)
            if not child.done >> c & 1 and (nbrs[x] & child.free).bit_count() != 1:
                child.g += 1  # completing a flow or entering a one-way cell costs nothing
            child = self.settle(child)
            if child is not None:
                children.append(child)
        return children

    def fewest_children(self, s: State) -> list[State]:
        """The settled successors of the color that has the fewest (lookahead): the colors
        are tried (the last one moved first, then the fewest legal moves first) until one has
        at most one. Every solution from s moves every flow not complete, so any color may be
        chosen, a color with none proves s has no solution, and a color with one makes a move
        every solution makes."""
        best: list[State] | None = None
        for c in self.probe_order(s):
            found = self.children(s, c)
            if best is None or len(found) < len(best):
                best = found
                if len(best) <= 1:
                    break
        return best or []

    def probe_order(self, s: State) -> list[int]:
        """The colors not complete, the last one moved first, then the fewest legal moves
        first (ties in priority order)."""
        open_ = [c for c in self.priority if not s.done >> c & 1]
        open_.sort(key=lambda c: (c != s.last, self.legal(s, c).bit_count()))
        return open_

    def settle(self, s: State) -> State | None:
        """s after its chain of forced moves, or None when a state of the chain fails."""
        while self.checks(s):
            if self.sw.queue_always:
                return s
            made = self.force(s)
            if made is None:
                return s
            if not made:
                return None
        return None

    def checks(self, s: State) -> bool:
        """Whether s passes every check that is on, cheapest first."""
        self.served_for = None  # s may have changed since `served` was last found
        for passes, stat in self.active:
            if not passes(s):
                self.stats[stat] += 1
                return False
        return True

    # --- forced moves --------------------------------------------------------------------

    def force(self, s: State) -> bool | None:
        """Make the forced moves in place: with links, every sure link from a head or a tail
        (whole chains; one move when forced moves go through the queue), else one move by
        the 2016 rules. True when some move was made, None when none is forced, False when
        s has no solution."""
        last = s.last  # a forced move does not change the color that moves next
        if self.sw.links:
            made = self.follow(s, single=self.sw.queue_always)
        else:
            move = self.forced(s)
            if not move:
                return move
            self.apply(s, *move)
            self.stats["forced"] += 1
            made = True
        if made and last >= 0 and not s.done >> last & 1:
            s.last = last
        return made

    def forced(self, s: State) -> tuple[int, int] | bool | None:
        """A move every solution from s makes by the 2016 rules, None if there is none, False
        if some flow is blocked (so that s has no solution). The first (a flow's head must
        move, and has one way) holds whatever the rule on cells; the second needs the free
        cell filled: with cells left empty it may stay empty, so it is off."""
        heads, tails, done = s.heads, s.tails, s.done
        incomplete = [c for c in self.priority if not done >> c & 1]
        legal = {}
        for c in incomplete:  # a flow with a single move
            moves = legal[c] = self.legal(s, c)
            if not moves & (moves - 1):
                if not moves:
                    self.stats["pruned_blocked"] += 1
                    return False
                return c, moves.bit_length() - 1
        if not self.fill_all:
            return None
        nbrs, free = self.board.nbrs, s.free
        open_ = free | s.ends
        for c in incomplete:  # a free cell next to a head with one other way out
            h, tb = heads[c], 1 << tails[c]
            others = open_ & ~(1 << h)
            if self.touch:
                others &= ~tb  # next to c's tail, the cell can only follow h
            way_out = free | tb
            for x in self.board.nbr_list[h]:
                if not free >> x & 1:
                    continue
                ways = nbrs[x] & others
                if not ways & (ways - 1) and not ways & ~way_out:
                    if legal[c] >> x & 1:
                        return c, x
                    self.stats["pruned_blocked"] += 1
                    return False
        return None

    def follow(self, s: State, single: bool = False) -> bool | None:
        """Extend heads and tails along the sure links of the last propagation, in place.
        True when some move was made, None when none was, False when a link leads a flow where
        it cannot go (another flow's end, a cell next to its own path or hinted for another).
        """
        sure, linked = self.links.sure
        if not linked:
            return None
        made, link = 0, self.links.linked
        for c in self.priority:
            if not (linked >> s.heads[c] & 1 or linked >> s.tails[c] & 1):
                continue
            for at_tail in (False, True) if self.sw.tails else (False,):
                while not s.done >> c & 1:
                    x = s.tails[c] if at_tail else s.heads[c]
                    y = link(x, sure, s.free | s.ends)
                    if y < 0:
                        break
                    other = s.heads[c] if at_tail else s.tails[c]
                    if y == other:
                        self.apply(s, c, s.tails[c])
                    elif not s.free >> y & 1 or (self.closed[c] | s.near[c]) >> y & 1 \
                            or (not at_tail and not self.legal(s, c) >> y & 1):
                        self.stats["pruned_blocked"] += 1
                        return False
                    elif at_tail:
                        self.extend(s, c, y)
                    else:
                        self.apply(s, c, y)
                    made += 1
                    self.stats["forced"] += 1
                    if single:
                        return True
        return True if made else None
