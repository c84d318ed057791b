from simulator.console import main

main()
