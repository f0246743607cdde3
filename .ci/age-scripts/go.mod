module agets

go 1.24.0

require (
	filippo.io/age v1.3.1
	github.com/rogpeppe/go-internal v1.14.1
)

require (
	filippo.io/hpke v0.4.0 // indirect
	golang.org/x/crypto v0.45.0 // indirect
	golang.org/x/sys v0.38.0 // indirect
	golang.org/x/term v0.37.0 // indirect
	golang.org/x/tools v0.39.0 // indirect
)
