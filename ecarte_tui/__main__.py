import sys

from ecarte_tui.cli import main

sys.exit(main())
