// Package apicheck holds tests of the module's public API as a whole (every
// exported signature nameable from outside the module); it has no code.
package apicheck
