"""What the Assimp cross-checks (cross_assimp*.py) share: the closing report and exit status."""
import sys


def finish(summary, agree, failures, skipped, notes=()):
    """Prints `summary`, the `notes` lines, every file Assimp could not load and every
    disagreement, then exits: 1 when anything disagreed or nothing agreed, else 0."""
    print(summary)
    for n in notes:
        print(n)
    for s in skipped:
        print(f"  assimp could not load: {s}")
    for f in failures:
        print(f"  DISAGREE {f}")
    sys.exit(1 if failures or agree == 0 else 0)
