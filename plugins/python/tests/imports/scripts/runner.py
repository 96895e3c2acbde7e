import json  # the script directory comes first on sys.path: scripts/json.py


def run():
    json.dumps(1)  # @fact edge CALLS runner.run -> json.dumps by=import
