package review

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/agcgate/agc-action/agc"
	"github.com/google/go-github/v62/github"
)

// The check run's output.text carries the response as the gate wrote it,
// gzipped and base64-encoded inside a hidden HTML comment (base64 cannot
// hold "-->"), with the SHA-256 of the bytes:
//
//	<!-- agc:response v=1 encoding=gzip+base64 sha256=HEX
//	BASE64 (76 characters a line)
//	-->
const embedOpen = "<!-- agc:response v=1 encoding=gzip+base64 sha256="

// ErrNotEmbedded is returned when a check run carries no response.
var ErrNotEmbedded = errors.New("the check run carries no embedded AGC response")

// EmbedResponse returns output.text for a check run: a line for people and
// the hidden response, or a note when it is too large to embed. Gzipping
// stops as soon as the output could no longer fit: a response of tens of
// megabytes costs what one that just fails to fit costs.
func EmbedResponse(raw []byte) string {
	gz := &cappedBuffer{max: MaxCheckText * 3 / 4} // base64 makes 4 characters of 3 bytes
	zw, _ := gzip.NewWriterLevel(gz, gzip.BestCompression)
	_, err := zw.Write(raw)
	if err == nil {
		err = zw.Close()
	}
	tooLarge := fmt.Sprintf("The AGC response (%d bytes, over %d gzipped) is too large to embed in a check run.\n", len(raw), gz.max)
	if err != nil {
		return tooLarge
	}
	enc := base64.StdEncoding.EncodeToString(gz.Bytes())
	sum := sha256.Sum256(raw)
	var b strings.Builder
	b.WriteString("The full AGC response is embedded below as a hidden comment (gzip, base64); `agc-sarif` reads it back.\n\n")
	b.WriteString(embedOpen + hex.EncodeToString(sum[:]) + "\n")
	for len(enc) > 76 {
		b.WriteString(enc[:76] + "\n")
		enc = enc[76:]
	}
	b.WriteString(enc + "\n-->\n")
	if b.Len() > MaxCheckText {
		return tooLarge
	}
	return b.String()
}

// cappedBuffer is a buffer that refuses to grow past max bytes.
type cappedBuffer struct {
	bytes.Buffer
	max int
}

var errCapped = errors.New("over the limit")

func (c *cappedBuffer) Write(p []byte) (int, error) {
	if c.Len()+len(p) > c.max {
		return 0, errCapped
	}
	return c.Buffer.Write(p)
}

// Embedded reports whether a check run's text, as EmbedResponse made it,
// holds the response.
func Embedded(text string) bool { return strings.Contains(text, embedOpen) }

// ReadBackRaw returns the response bytes embedded in a check run's text,
// checked against their SHA-256.
func ReadBackRaw(run *github.CheckRun) ([]byte, error) {
	text := run.GetOutput().GetText()
	i := strings.Index(text, embedOpen)
	if i < 0 {
		return nil, ErrNotEmbedded
	}
	rest := text[i+len(embedOpen):]
	sumHex, rest, ok := strings.Cut(rest, "\n")
	payload, _, ok2 := strings.Cut(rest, "-->")
	if !ok || !ok2 {
		return nil, fmt.Errorf("check run %d: embedded response is not closed", run.GetID())
	}
	gz, err := base64.StdEncoding.DecodeString(strings.ReplaceAll(strings.TrimSpace(payload), "\n", ""))
	if err != nil {
		return nil, fmt.Errorf("check run %d: embedded response: %w", run.GetID(), err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, fmt.Errorf("check run %d: embedded response: %w", run.GetID(), err)
	}
	raw, err := io.ReadAll(io.LimitReader(zr, agc.DefaultMaxBytes+1))
	if err != nil {
		return nil, fmt.Errorf("check run %d: embedded response: %w", run.GetID(), err)
	}
	if sum := sha256.Sum256(raw); hex.EncodeToString(sum[:]) != strings.TrimSpace(sumHex) {
		return nil, fmt.Errorf("check run %d: embedded response does not match its sha256", run.GetID())
	}
	return raw, nil
}
