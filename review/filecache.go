package review

import "sync"

// fileCache reads each file at head once: placing, suggesting, annotating
// and summarising read a finding's file each, and a judged party decides
// how many findings name one file.
type fileCache struct {
	next FileReader
	mu   sync.Mutex
	m    map[string]cachedFile
}

type cachedFile struct {
	data []byte
	err  error
}

// CachedFiles is next reading each file once; next itself when it already
// is one.
func CachedFiles(next FileReader) FileReader {
	if fc, ok := next.(*fileCache); ok {
		return fc
	}
	return &fileCache{next: next, m: map[string]cachedFile{}}
}

func (fc *fileCache) ReadFile(path string) ([]byte, error) {
	fc.mu.Lock()
	defer fc.mu.Unlock()
	if f, ok := fc.m[path]; ok {
		return f.data, f.err
	}
	data, err := fc.next.ReadFile(path)
	fc.m[path] = cachedFile{data, err}
	return data, err
}
