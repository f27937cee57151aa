package mapfile

import "syscall"

// populate asks Linux to map every page at once (one call instead of a
// fault per page).
const populate = syscall.MAP_POPULATE
