import sys

from segmint_core.cli import main

sys.exit(main())
