package review

import (
	"strconv"

	"github.com/agcgate/agc-action/internal/agctest"
)

func itoaT(i int) string { return strconv.Itoa(i) }

var (
	finding  = agctest.Finding
	response = agctest.Response
)
