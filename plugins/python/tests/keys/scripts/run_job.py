# A loose script (its directory is not a package): keyed by its stem.
# @fact node run_job Module file=scripts/run_job.py
# @fact no-node scripts.run_job


def main():  # @fact node run_job.main Function
    pass


if __name__ == "__main__":
    main()  # @fact edge CALLS run_job -> run_job.main by=scope
