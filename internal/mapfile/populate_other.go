//go:build darwin || freebsd

package mapfile

// populate: only Linux has MAP_POPULATE; elsewhere pages fault in as read.
const populate = 0
