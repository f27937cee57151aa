// Command fpmain prints the code fingerprint of the program it is built
// into, then what codefp.CheckTree says of the tree at its argument
// (codefp's TestBuiltProgramNamesTheCodeItWasBuiltFrom).
package main

import (
	"fmt"
	"os"

	"github.com/esrkit/esrkit/internal/codefp"
)

func main() {
	fmt.Println(codefp.Fingerprint())
	if err := codefp.CheckTree(os.Args[1]); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("ok")
}
