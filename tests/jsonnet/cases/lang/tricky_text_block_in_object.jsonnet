{ script: |||
    #!/bin/sh
    echo "hi"
  |||, after: 1 }
