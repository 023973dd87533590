"""Tablebase conversion check for an arena PGN (tarpon-tb vs another engine).

For every game, takes the first position with at most 4 pieces (the range of
the 3-4-piece tables), asks python-chess's own Syzygy prober for its result
under the fifty-move rule from tarpon-tb's side, and counts it against the
game's result.
Usage: python3 arena/tb_conversion_check.py games.pgn [SYZYGY_DIR]
SYZYGY_DIR defaults to $DATA_DIR/syzygy, DATA_DIR to ../shared/data;
tests/data/syzygy holds every 3-4-piece table and will do.
"""
import chess, chess.pgn, chess.syzygy, sys, collections, os
data_dir = os.environ.get('DATA_DIR', '../shared/data')
tb = chess.syzygy.open_tablebase(sys.argv[2] if len(sys.argv) > 2 else os.path.join(data_dir, 'syzygy'))
stats = collections.Counter()
with open(sys.argv[1]) as f:
    while True:
        g = chess.pgn.read_game(f)
        if g is None: break
        res = g.headers['Result']
        tbside = chess.WHITE if g.headers['White']=='tarpon-tb' else chess.BLACK
        b = g.board()
        first = None
        for mv in g.mainline_moves():
            if len(b.piece_map()) <= 4 and not b.has_castling_rights(chess.WHITE) and not b.has_castling_rights(chess.BLACK):
                first = b.copy(); break
            b.push(mv)
        else:
            if len(b.piece_map()) <= 4: first = b.copy()
        if first is None:
            stats['never reached 4 pieces'] += 1; continue
        wdl = tb.probe_wdl(first)  # side to move, fresh clock assumption if clock 0
        dtz = tb.probe_dtz(first)
        # result for the side to move under the 50-move rule with its clock
        if wdl > 0 and dtz + first.halfmove_clock > 100: wdl = 1
        if wdl < 0 and -dtz + first.halfmove_clock > 100: wdl = -1
        tb_view = wdl if first.turn == tbside else -wdl
        cls = {2:'win',1:'cursed win',0:'draw',-1:'blessed loss',-2:'loss'}[tb_view]
        score = {'1-0':1,'0-1':0,'1/2-1/2':0.5}[res]
        tb_score = score if tbside == chess.WHITE else 1-score
        out = {1:'won',0.5:'drawn',0:'lost'}[tb_score]
        stats[f'entered 4-piece table range: theory {cls} for tarpon-tb -> {out}'] += 1
for k,v in sorted(stats.items()): print(f'{v:4d}  {k}')
