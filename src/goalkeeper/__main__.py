from goalkeeper.cli import main

main()
