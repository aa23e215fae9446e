import sys

from segmint.cli import main

sys.exit(main())
