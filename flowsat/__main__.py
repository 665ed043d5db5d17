from flowsat.cli import main

main()
