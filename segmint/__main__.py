import sys

from segmint.entry import main

sys.exit(main())
