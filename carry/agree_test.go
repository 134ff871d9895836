package carry

import (
	"reflect"
	"testing"
)

func TestValidationFailures(t *testing.T) {
	const name, sha, app, mine = "agc/agc-validate", "abc", 15368, "agc-validate/job:mine"
	allow := []byte(`{"agc":"0.1.1","gate":{"id":"agc-validate","kind":"deterministic","version":"1"},"subject":{"kind":"artifact","fingerprint":"sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},"verdict":"allow","findings":[],"coverage":{"complete":true,"classes":["x"]},"attempt":{"n":1,"budget":3}}`)
	run := func(id int64, job, conclusion string, resp []byte) CheckRun {
		return CheckRun{ID: id, AppID: app, Name: name, HeadSHA: sha, Status: "completed", Conclusion: conclusion, ExternalID: job, Response: resp}
	}
	conclusion := func(v string) string {
		if v == "allow" {
			return "success"
		}
		return "failure"
	}
	for _, tc := range []struct {
		name string
		list []CheckRun
		want []int64
	}{
		{"none", nil, nil},
		{"another job failed", []CheckRun{run(1, "a", "failure", nil)}, []int64{1}},
		{"another job failed, then passed on a rerun", []CheckRun{run(1, "a", "failure", nil), run(2, "a", "success", allow)}, nil},
		{"this job's own earlier failure is superseded", []CheckRun{run(1, mine, "failure", nil)}, nil},
		{"failed only because another did: not a failure of its own", []CheckRun{run(1, "b", "failure", allow)}, nil},
		{"runs without a job id are each their own", []CheckRun{run(1, "", "failure", nil), run(2, "", "success", nil)}, []int64{1}},
		{"another app, another commit, another name, not completed", []CheckRun{
			{ID: 1, AppID: 9, Name: name, HeadSHA: sha, Status: "completed", Conclusion: "failure"},
			{ID: 2, AppID: app, Name: name, HeadSHA: "def", Status: "completed", Conclusion: "failure"},
			{ID: 3, AppID: app, Name: "agc/x", HeadSHA: sha, Status: "completed", Conclusion: "failure"},
			{ID: 4, AppID: app, Name: name, HeadSHA: sha, Status: "in_progress"},
		}, nil},
		{"newest first", []CheckRun{run(1, "a", "failure", nil), run(2, "b", "action_required", nil)}, []int64{2, 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []int64
			for _, r := range ValidationFailures(tc.list, name, sha, app, mine, conclusion) {
				got = append(got, r.ID)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

func TestValidatorJob(t *testing.T) {
	a := ValidatorJob("w", "gates", []string{"agc: review=out/a.json"})
	if a != ValidatorJob("w", "gates", []string{"agc: review=out/a.json"}) {
		t.Error("a rerun of a job must have its id")
	}
	for _, other := range []string{
		ValidatorJob("w", "gates", []string{"agc: lint=out/a.json"}),
		ValidatorJob("w", "gates2", []string{"agc: review=out/a.json"}),
		ValidatorJob("w2", "gates", []string{"agc: review=out/a.json"}),
		ValidatorJob("w", "gate", []string{"sagc: review=out/a.json"}),
	} {
		if other == a {
			t.Errorf("another job has the id %s", a)
		}
	}
}
