// Package sariftest checks SARIF output three ways for tests: the SARIF
// 2.1.0 JSON schema (vendored in fixtures/sarif/), Microsoft's SARIF
// Multitool 5.7.0 with its Sarif and GitHub (Ghas) rules, and GitHub's
// upload limits. It reads the schema and runs the Multitool (on files in
// the test's temporary directory); only tests import it.
package sariftest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/agcgate/agc-action/internal/testkit"
	"github.com/agcgate/agc-action/sarif"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// RepoRoot is the directory holding go.mod, found from the working
// directory upwards.
func RepoRoot(t testing.TB) string {
	t.Helper()
	return testkit.RepoRoot(t)
}

var (
	schemaOnce sync.Once
	schema     *jsonschema.Schema
	schemaErr  error
)

// Schema is the vendored SARIF 2.1.0 schema, compiled once.
func Schema(t testing.TB) *jsonschema.Schema {
	t.Helper()
	schemaOnce.Do(func() {
		path := filepath.Join(RepoRoot(t), "fixtures", "sarif", "sarif-schema-2.1.0.json")
		f, err := os.Open(path)
		if err != nil {
			schemaErr = err
			return
		}
		defer f.Close()
		doc, err := jsonschema.UnmarshalJSON(f)
		if err != nil {
			schemaErr = fmt.Errorf("%s: %w", path, err)
			return
		}
		c := jsonschema.NewCompiler()
		c.DefaultDraft(jsonschema.Draft4)
		if err := c.AddResource("sarif-schema-2.1.0.json", doc); err != nil {
			schemaErr = err
			return
		}
		schema, schemaErr = c.Compile("sarif-schema-2.1.0.json")
	})
	if schemaErr != nil {
		t.Fatalf("compile the SARIF schema: %v", schemaErr)
	}
	return schema
}

// CheckSchema validates data against the SARIF 2.1.0 schema.
func CheckSchema(t testing.TB, data []byte) error {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return err
	}
	return Schema(t).Validate(v)
}

// CheckLimits applies GitHub's upload limits to data.
func CheckLimits(data []byte) error {
	var rep struct {
		Runs []struct {
			Results []json.RawMessage `json:"results"`
			Tool    struct {
				Driver struct {
					Rules []json.RawMessage `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(data, &rep); err != nil {
		return err
	}
	if len(rep.Runs) > sarif.MaxRuns {
		return fmt.Errorf("%d runs, GitHub accepts %d", len(rep.Runs), sarif.MaxRuns)
	}
	for i, r := range rep.Runs {
		if len(r.Results) > sarif.MaxResultsPerRun || len(r.Tool.Driver.Rules) > sarif.MaxRulesPerRun {
			return fmt.Errorf("run %d: %d results, %d rules; GitHub accepts %d of each", i, len(r.Results), len(r.Tool.Driver.Rules), sarif.MaxResultsPerRun)
		}
	}
	return sarif.CheckSize(data)
}

// MultitoolPath is the Multitool binary scripts/setup.sh installs.
func MultitoolPath(t testing.TB) string {
	t.Helper()
	return testkit.Multitool(t)
}

// Multitool validates files in one Multitool call with the Sarif and Ghas
// rules and fixtures/sarif/multitool-config.xml, and returns the
// error-level results by file (the tool exits 0 even when it finds errors,
// so its report is read instead).
func Multitool(t testing.TB, files []string) map[string][]string {
	t.Helper()
	if len(files) == 0 {
		return nil
	}
	report := filepath.Join(t.TempDir(), "multitool-report.sarif")
	args := append([]string{"validate"}, files...)
	args = append(args, "--rule-kind", "Sarif;Ghas", "--level", "Error;Warning",
		"-c", filepath.Join(RepoRoot(t), "fixtures", "sarif", "multitool-config.xml"),
		"--quiet", "true", "-o", report, "--log", "ForceOverwrite")
	cmd := exec.Command(MultitoolPath(t), args...)
	cmd.Env = append(os.Environ(), "DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("Multitool validate: %v\n%s", err, out)
	}
	data, err := os.ReadFile(report)
	if err != nil {
		t.Fatalf("Multitool wrote no report: %v\n%s", err, out)
	}
	errs, err := errorResults(data)
	if err != nil {
		t.Fatalf("read the Multitool report: %v", err)
	}
	return errs
}

type mtReport struct {
	Runs []struct {
		Tool struct {
			Driver struct {
				Rules []struct {
					ID                   string `json:"id"`
					DefaultConfiguration struct {
						Level string `json:"level"`
					} `json:"defaultConfiguration"`
					MessageStrings map[string]struct {
						Text string `json:"text"`
					} `json:"messageStrings"`
				} `json:"rules"`
			} `json:"driver"`
		} `json:"tool"`
		Artifacts []struct {
			Location struct {
				URI string `json:"uri"`
			} `json:"location"`
		} `json:"artifacts"`
		Results []struct {
			RuleID    string `json:"ruleId"`
			RuleIndex *int   `json:"ruleIndex"`
			Level     string `json:"level"`
			Message   struct {
				ID        string   `json:"id"`
				Arguments []string `json:"arguments"`
			} `json:"message"`
			Locations []struct {
				PhysicalLocation struct {
					ArtifactLocation struct {
						URI   string `json:"uri"`
						Index *int   `json:"index"`
					} `json:"artifactLocation"`
				} `json:"physicalLocation"`
			} `json:"locations"`
		} `json:"results"`
	} `json:"runs"`
}

// errorResults picks the results whose level, or whose rule's default
// level, is error, keyed by the file they are about.
func errorResults(data []byte) (map[string][]string, error) {
	var rep mtReport
	if err := json.Unmarshal(data, &rep); err != nil {
		return nil, err
	}
	out := map[string][]string{}
	for _, run := range rep.Runs {
		defaults := map[string]string{}
		texts := map[string]map[string]string{}
		for _, r := range run.Tool.Driver.Rules {
			defaults[r.ID] = r.DefaultConfiguration.Level
			texts[r.ID] = map[string]string{}
			for k, v := range r.MessageStrings {
				texts[r.ID][k] = v.Text
			}
		}
		for _, res := range run.Results {
			level := res.Level
			if level == "" {
				level = defaults[res.RuleID]
			}
			if level != "error" {
				continue
			}
			file := "?"
			if len(res.Locations) > 0 {
				al := res.Locations[0].PhysicalLocation.ArtifactLocation
				file = al.URI
				if file == "" && al.Index != nil && *al.Index < len(run.Artifacts) {
					file = run.Artifacts[*al.Index].Location.URI
				}
			}
			file = strings.TrimPrefix(file, "file://")
			if dec, err := url.PathUnescape(file); err == nil {
				file = dec
			}
			msg := texts[res.RuleID][res.Message.ID]
			for i, a := range res.Message.Arguments {
				msg = strings.ReplaceAll(msg, fmt.Sprintf("{%d}", i), a)
			}
			out[file] = append(out[file], res.RuleID+": "+msg)
		}
	}
	for k := range out {
		sort.Strings(out[k])
	}
	return out, nil
}
