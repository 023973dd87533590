"""The database side of arena/openbench_local.sh, run by OpenBench's
`manage.py shell` (which executes its standard input): creates the user and
the workloads the web form would create (the form asks GitHub for commits,
which a loopback-only check cannot reach) and reads results back.

The action is OB_ACTION; its inputs are OB_* environment variables. Prints
one line of JSON.
"""
import json
import os

from django.contrib.auth.models import User

import OpenBench.spsa_utils
from OpenBench.models import Engine, Profile, SPSAParameter, Test

ENV = os.environ
ENGINE = "tarpon-ob"


def create_user():
    user = User.objects.create_user(ENV["OB_USER"], password=ENV["OB_PASSWORD"])
    Profile.objects.create(user=user, enabled=True, approver=True)
    return {"user": user.username}


def create_workload(mode):
    """A TEST (fixed games), DATAGEN or SPSA workload of one commit against itself."""
    engine = Engine.objects.create(name=ENV["OB_BRANCH"], source=ENV["OB_SOURCE"],
                                   sha=ENV["OB_SHA"], bench=int(ENV["OB_BENCH"]))
    test = Test(author=ENV["OB_USER"], book_name=ENV["OB_BOOK"], upload_pgns=ENV["OB_UPLOAD"],
                info="openbench_local.sh", dev=engine, base=engine,
                dev_repo=ENV["OB_SOURCE"], base_repo=ENV["OB_SOURCE"],
                dev_engine=ENGINE, base_engine=ENGINE,
                dev_options=ENV["OB_OPTIONS"], base_options=ENV["OB_OPTIONS"],
                dev_time_control=ENV["OB_TC"], base_time_control=ENV["OB_TC"],
                workload_size=int(ENV["OB_WORKLOAD_SIZE"]), priority=0, throughput=1000,
                syzygy_wdl="DISABLED", syzygy_adj="DISABLED",
                win_adj=ENV["OB_WIN_ADJ"], draw_adj=ENV["OB_DRAW_ADJ"],
                scale_method="BASE", scale_nps=int(ENV["OB_SCALE_NPS"]), approved=True)
    if mode == "test":
        test.test_mode, test.max_games = "GAMES", int(ENV["OB_MAX_GAMES"])
    elif mode == "datagen":
        test.test_mode, test.max_games = "DATAGEN", int(ENV["OB_MAX_GAMES"])
        test.genfens_args, test.play_reverses = ENV["OB_GENFENS_ARGS"], False
        test.use_tri, test.use_penta = True, False
    else:
        test.test_mode = "SPSA"
    test.save()
    if mode == "spsa":
        # OpenBench's own constructor, fed what the tune form would post.
        class Form:
            POST = {"spsa_alpha": "0.602", "spsa_gamma": "0.101", "spsa_A_ratio": "0.1",
                    "spsa_iterations": ENV["OB_SPSA_ITERATIONS"],
                    "spsa_pairs_per": ENV["OB_WORKLOAD_SIZE"],
                    "spsa_reporting_type": "BULK", "spsa_distribution_type": "SINGLE",
                    "spsa_inputs": ENV["OB_SPSA_INPUTS"]}
        OpenBench.spsa_utils.create_spsa_run(test, Form()).save()
    return {"id": test.id}


def report():
    test = Test.objects.get(id=int(ENV["OB_TEST"]))
    out = {"id": test.id, "mode": test.test_mode, "finished": test.finished,
           "games": test.games, "wins": test.wins, "draws": test.draws, "losses": test.losses,
           "pentanomial": [test.LL, test.LD, test.DD, test.DW, test.WW]}
    if test.test_mode == "SPSA":
        params = SPSAParameter.objects.filter(spsa_run=test.spsa_run).order_by("index")
        out["spsa"] = [{"name": p.name, "start": p.start, "value": round(p.value, 3)}
                       for p in params]
        out["optimal"] = OpenBench.spsa_utils.spsa_optimal_values(test)
    return out


ACTIONS = {"user": create_user, "test": lambda: create_workload("test"),
           "datagen": lambda: create_workload("datagen"),
           "spsa": lambda: create_workload("spsa"), "report": report}
print(json.dumps(ACTIONS[ENV["OB_ACTION"]]()))
