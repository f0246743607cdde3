// age 1.3.1's own CLI test scripts (filippo.io/age/cmd/age/testdata, run
// by testscript as age runs them) against simdcrypt called as `age` and
// `age-keygen`: `age`/`age-keygen` here exec $SIMDCRYPT_BIN under those
// names; age's test plugin and its Go plugins (from $PEERS) are the real
// ones. Run by .ci/age-scripts/run.
package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"

	"filippo.io/age"
	"filippo.io/age/plugin"
	"github.com/rogpeppe/go-internal/testscript"
)

func execAs(name string) func() {
	return func() {
		bin := os.Getenv("SIMDCRYPT_BIN")
		err := syscall.Exec(bin, append([]string{name}, os.Args[1:]...), os.Environ())
		panic(err)
	}
}

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"age":        execAs("age"),
		"age-keygen": execAs("age-keygen"),
		"age-plugin-test": func() {
			p, _ := plugin.New("test")
			p.HandleRecipient(func(data []byte) (age.Recipient, error) { return testPlugin{}, nil })
			p.HandleIdentity(func(data []byte) (age.Identity, error) { return testPlugin{}, nil })
			os.Exit(p.Main())
		},
	})
}

type testPlugin struct{}

func (testPlugin) Wrap(fileKey []byte) ([]*age.Stanza, error) {
	return []*age.Stanza{{Type: "test", Body: fileKey}}, nil
}

func (testPlugin) Unwrap(ss []*age.Stanza) ([]byte, error) {
	if len(ss) == 1 && ss[0].Type == "test" {
		return ss[0].Body, nil
	}
	return nil, age.ErrIncorrectIdentity
}

func TestScript(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: "testdata",
		Setup: func(e *testscript.Env) error {
			bindir := filepath.SplitList(e.Getenv("PATH"))[0]
			for _, p := range []string{"age-plugin-pq", "age-plugin-batchpass"} {
				if _, err := os.Stat(filepath.Join(bindir, p)); err == nil {
					continue
				}
				exec.Command("cp", filepath.Join(os.Getenv("PEERS"), p), bindir).Run()
			}
			e.Setenv("SIMDCRYPT_BIN", os.Getenv("SIMDCRYPT_BIN"))
			return nil
		},
	})
}
