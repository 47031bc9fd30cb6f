package sweep

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Row is the result at one point of the grid.
type Row struct {
	Point int
	// Params are the point's axis values, in the order of the table's axes.
	Params []float64
	// Metrics are the measured values in the order of the table's metrics — with
	// replications, the means over the replicates; nil is a value that does not exist at
	// this point (JSON null, an empty CSV field, "-" in a table): a metric that is undefined
	// there, one that some replicate lacks, or any metric of a failed point.
	Metrics []*float64
	// SD and CI95 are, with replications, each metric's standard deviation over the
	// replicates and the half width of the 95% confidence interval of its mean; nil
	// without replications.
	SD, CI95 []*float64
	// Error is why the point's run failed ("" when it did not); its metrics are then nil.
	Error string
}

// Table is the output of a sweep or of a merge: one row per point, sorted by point.
// Its JSON form is
//
//	{"spec": {"scenario": "seed000-dumbbell", "engine": "fluid", "seed": 1, "replications": 8,
//	          "fingerprint": "…", "hints": {"colo.gamma": "…"}},
//	 "axes": [{"name": "colo.gamma", "values": [0.5, 1]}], "metrics": ["throughput_bps"],
//	 "shard": "1/3",
//	 "rows": [{"point": 1, "colo.gamma": 1, "throughput_bps": 9.6e7,
//	           "throughput_bps_sd": 1.2e6, "throughput_bps_ci95": 1e6}],
//	 "notes": ["…"]}
//
// with "shard" only when Shards > 1; "replications", the _sd and _ci95 keys only with
// replications; "options" (the packet engine's) and "hints" only when there are any; a row's
// "error" only when its point failed; and "notes" only when there are any (Notes). Its CSV
// form (WriteCSV) starts with the line "# tcpfluid sweep " and the JSON object of the spec,
// axes, metrics and shard, then has the header (Columns) and one line per row, then one
// "# note: " line per note. Numbers are in their shortest exact form.
type Table struct {
	// Scenario, Engine, Options, Seed, Replications and Fingerprint describe the sweep;
	// Fingerprint is a hash of everything that determines its results (the base scenario,
	// the bottleneck, the engine and its options, the seed, the replications, the axes and
	// the metrics). Options are the packet engine's ("sack jitter=0.001"), "" for none.
	// Replications is 1 for one run per point.
	Scenario     string
	Engine       string
	Options      string
	Seed         uint64
	Replications int
	Fingerprint  string
	// Hints say, for an axis (or a metric), why it may show no effect on this scenario;
	// Notes uses them.
	Hints   map[string]string
	Axes    []Axis
	Metrics []string
	// Shard of Shards is the part of the grid the rows cover; 0 of 1 is all of it.
	Shard, Shards int
	Rows          []Row
	// Format is "json" or "csv" for a table read by Read, "" otherwise; Source names where
	// it was read from (a file), for Merge's errors.
	Format, Source string
}

// Points is the number of points of the whole grid.
func (t *Table) Points() int {
	n := 1
	for _, a := range t.Axes {
		n *= len(a.Values)
	}
	return n
}

// replicated reports whether the rows carry standard deviations and intervals.
func (t *Table) replicated() bool { return t.Replications > 1 }

// Failed is the number of rows whose point failed.
func (t *Table) Failed() int {
	n := 0
	for _, r := range t.Rows {
		if r.Error != "" {
			n++
		}
	}
	return n
}

// Columns are the table's columns in its CSV and JSON forms: point, the axis names, each
// metric (followed, with replications, by metric_sd and metric_ci95), and error.
func (t *Table) Columns() []string {
	cols := []string{"point"}
	for _, a := range t.Axes {
		cols = append(cols, a.Name)
	}
	for _, m := range t.Metrics {
		cols = append(cols, m)
		if t.replicated() {
			cols = append(cols, m+"_sd", m+"_ci95")
		}
	}
	return append(cols, "error")
}

// cells are a row's metric cells in column order (with replications, mean, sd, ci95 per
// metric).
func (t *Table) cells(r Row) []*float64 {
	if !t.replicated() {
		return r.Metrics
	}
	out := make([]*float64, 0, 3*len(r.Metrics))
	for k := range r.Metrics {
		var sd, ci *float64
		if r.SD != nil {
			sd, ci = r.SD[k], r.CI95[k]
		}
		out = append(out, r.Metrics[k], sd, ci)
	}
	return out
}

// setCells is cells' inverse.
func (t *Table) setCells(r *Row, cells []*float64) {
	if !t.replicated() {
		r.Metrics = cells
		return
	}
	n := len(cells) / 3
	r.Metrics, r.SD, r.CI95 = make([]*float64, n), make([]*float64, n), make([]*float64, n)
	for k := range n {
		r.Metrics[k], r.SD[k], r.CI95[k] = cells[3*k], cells[3*k+1], cells[3*k+2]
	}
}

// headerJSON is the spec of a sweep: the "spec" object of its JSON form, and with the axes,
// metrics and shard the first line of its CSV form.
type headerJSON struct {
	Scenario     string            `json:"scenario"`
	Engine       string            `json:"engine"`
	Options      string            `json:"options,omitempty"`
	Seed         uint64            `json:"seed"`
	Replications int               `json:"replications,omitempty"`
	Fingerprint  string            `json:"fingerprint"`
	Hints        map[string]string `json:"hints,omitempty"`
	// CSV only.
	Axes    []Axis   `json:"axes,omitempty"`
	Metrics []string `json:"metrics,omitempty"`
	Shard   string   `json:"shard,omitempty"`
}

func (t *Table) header(csv bool) headerJSON {
	h := headerJSON{Scenario: t.Scenario, Engine: t.Engine, Options: t.Options, Seed: t.Seed, Fingerprint: t.Fingerprint}
	if t.replicated() {
		h.Replications = t.Replications
	}
	if len(t.Hints) > 0 {
		h.Hints = t.Hints
	}
	if csv {
		h.Axes, h.Metrics, h.Shard = t.Axes, t.Metrics, t.shardName()
		if h.Axes == nil {
			h.Axes = []Axis{}
		}
	}
	return h
}

func (t *Table) absorb(h headerJSON) {
	t.Scenario, t.Engine, t.Options, t.Seed, t.Fingerprint, t.Hints = h.Scenario, h.Engine, h.Options, h.Seed, h.Fingerprint, h.Hints
	t.Replications = max(h.Replications, 1)
}

func (t *Table) shardName() string {
	if t.Shards > 1 {
		return fmt.Sprintf("%d/%d", t.Shard, t.Shards)
	}
	return ""
}

type tableJSON struct {
	Spec    *headerJSON       `json:"spec"`
	Axes    []Axis            `json:"axes"`
	Metrics []string          `json:"metrics"`
	Shard   string            `json:"shard,omitempty"`
	Rows    []json.RawMessage `json:"rows"`
	Notes   []string          `json:"notes,omitempty"`
}

// MarshalJSON writes the table's JSON form (see Table): each row an object with the
// keys of Columns, in that order, the error only when the point failed.
func (t *Table) MarshalJSON() ([]byte, error) {
	h := t.header(false)
	out := tableJSON{Spec: &h, Axes: t.Axes, Metrics: t.Metrics, Shard: t.shardName(), Rows: make([]json.RawMessage, len(t.Rows)), Notes: t.Notes()}
	if out.Axes == nil {
		out.Axes = []Axis{}
	}
	if out.Metrics == nil {
		out.Metrics = []string{}
	}
	cols := t.Columns()
	for i, r := range t.Rows {
		if err := t.checkRow(r); err != nil {
			return nil, err
		}
		var b bytes.Buffer
		fmt.Fprintf(&b, `{"point":%d`, r.Point)
		for k := range t.Axes {
			writeJSONField(&b, cols[1+k], &r.Params[k])
		}
		for k, v := range t.cells(r) {
			writeJSONField(&b, cols[1+len(t.Axes)+k], v)
		}
		if r.Error != "" {
			e, _ := json.Marshal(r.Error)
			b.WriteString(`,"error":`)
			b.Write(e)
		}
		b.WriteByte('}')
		out.Rows[i] = b.Bytes()
	}
	return json.Marshal(out)
}

func (t *Table) checkRow(r Row) error {
	if len(r.Params) != len(t.Axes) || len(r.Metrics) != len(t.Metrics) {
		return fmt.Errorf("%w: row of point %d has %d parameters and %d metrics, want %d and %d", ErrMerge, r.Point, len(r.Params), len(r.Metrics), len(t.Axes), len(t.Metrics))
	}
	return nil
}

func writeJSONField(b *bytes.Buffer, key string, v *float64) {
	k, _ := json.Marshal(key)
	b.WriteByte(',')
	b.Write(k)
	b.WriteByte(':')
	if v == nil || math.IsNaN(*v) || math.IsInf(*v, 0) {
		b.WriteString("null")
		return
	}
	val, _ := json.Marshal(*v) // finite, so Marshal cannot fail
	b.Write(val)
}

// UnmarshalJSON reads the table's JSON form, checking that every row has exactly the
// keys of Columns (the error only when the point failed). Notes are not read: they follow
// from the rows.
func (t *Table) UnmarshalJSON(data []byte) error {
	var in tableJSON
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&in); err != nil {
		return fmt.Errorf("%w: %w", ErrMerge, err)
	}
	if in.Spec == nil {
		return fmt.Errorf("%w: no \"spec\": not the output of a tcpfluid sweep", ErrMerge)
	}
	*t = Table{Axes: in.Axes, Metrics: in.Metrics, Shards: 1, Rows: make([]Row, len(in.Rows)), Format: "json"}
	t.absorb(*in.Spec)
	if in.Shard != "" {
		var err error
		if t.Shard, t.Shards, err = ParseShard(in.Shard); err != nil {
			return fmt.Errorf("%w: %w", ErrMerge, err)
		}
	}
	if err := t.checkColumns(); err != nil {
		return err
	}
	cols := t.Columns()
	for i, raw := range in.Rows {
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(raw, &fields); err != nil {
			return fmt.Errorf("%w: rows[%d]: %w", ErrMerge, i, err)
		}
		r := Row{Params: make([]float64, len(t.Axes))}
		if e, ok := fields["error"]; ok {
			if err := json.Unmarshal(e, &r.Error); err != nil || r.Error == "" {
				return fmt.Errorf("%w: rows[%d].error = %s, want a message", ErrMerge, i, e)
			}
			delete(fields, "error")
		}
		if len(fields) != len(cols)-1 {
			return fmt.Errorf("%w: rows[%d] has keys %v, want %v", ErrMerge, i, slices.Sorted(maps.Keys(fields)), cols)
		}
		num := func(key string) (*float64, error) {
			raw, ok := fields[key]
			if !ok {
				return nil, fmt.Errorf("%w: rows[%d] has no %s", ErrMerge, i, key)
			}
			var v *float64
			if err := json.Unmarshal(raw, &v); err != nil {
				return nil, fmt.Errorf("%w: rows[%d].%s: %w", ErrMerge, i, key, err)
			}
			return v, nil
		}
		pt, err := num("point")
		if err != nil {
			return err
		}
		if pt == nil || *pt < 0 || *pt != math.Trunc(*pt) || *pt >= MaxPoints {
			return fmt.Errorf("%w: rows[%d].point = %v, want a whole number from 0 to %d", ErrMerge, i, pt, MaxPoints-1)
		}
		r.Point = int(*pt)
		for k, a := range t.Axes {
			v, err := num(a.Name)
			if err != nil {
				return err
			}
			if v == nil {
				return fmt.Errorf("%w: rows[%d] has no value of axis %s", ErrMerge, i, a.Name)
			}
			r.Params[k] = *v
		}
		cells := make([]*float64, len(cols)-2-len(t.Axes))
		for k := range cells {
			if cells[k], err = num(cols[1+len(t.Axes)+k]); err != nil {
				return err
			}
		}
		t.setCells(&r, cells)
		t.Rows[i] = r
	}
	return nil
}

// checkColumns checks the axis and metric names of a table read from a file.
func (t *Table) checkColumns() error {
	for i, a := range t.Axes {
		if _, err := lookupParam(a.Name); err != nil {
			return fmt.Errorf("%w: axes[%d]: %w", ErrMerge, i, err)
		}
		if slices.ContainsFunc(t.Axes[:i], func(b Axis) bool { return b.Name == a.Name }) {
			return fmt.Errorf("%w: axis %s appears twice", ErrMerge, a.Name)
		}
		if len(a.Values) == 0 {
			return fmt.Errorf("%w: axis %s has no values", ErrMerge, a.Name)
		}
	}
	for i, m := range t.Metrics {
		if _, err := lookupMetric(m); err != nil {
			return fmt.Errorf("%w: %w", ErrMerge, err)
		}
		if slices.Contains(t.Metrics[:i], m) {
			return fmt.Errorf("%w: metric %s appears twice", ErrMerge, m)
		}
	}
	return nil
}

// csvMagic starts the first line of a sweep's CSV form.
const csvMagic = "# tcpfluid sweep "

// WriteCSV writes the table's CSV form (see Table): the spec line, the header (Columns),
// one line per row (a missing value as an empty field, the error last), and the notes.
func (t *Table) WriteCSV(w io.Writer) error {
	h, err := json.Marshal(t.header(true))
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%s%s\n", csvMagic, h)
	cw := csv.NewWriter(bw)
	cw.Write(t.Columns())
	for _, r := range t.Rows {
		if err := t.checkRow(r); err != nil {
			return err
		}
		line := []string{strconv.Itoa(r.Point)}
		for _, v := range r.Params {
			line = append(line, strconv.FormatFloat(v, 'g', -1, 64))
		}
		for _, v := range t.cells(r) {
			if v == nil || math.IsNaN(*v) || math.IsInf(*v, 0) {
				line = append(line, "")
				continue
			}
			line = append(line, strconv.FormatFloat(*v, 'g', -1, 64))
		}
		cw.Write(append(line, r.Error))
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return err
	}
	for _, n := range t.Notes() {
		fmt.Fprintf(bw, "# note: %s\n", strings.ReplaceAll(n, "\n", " "))
	}
	return bw.Flush()
}

// Read reads a table in its JSON form (the first non-blank byte is '{') or its CSV
// form (the first line starts with "# tcpfluid sweep ").
func Read(r io.Reader) (*Table, error) {
	br := bufio.NewReader(r)
	for {
		c, err := br.ReadByte()
		if err != nil {
			return nil, fmt.Errorf("%w: empty input, want a sweep's JSON or CSV output", ErrMerge)
		}
		if c == ' ' || c == '\t' || c == '\r' || c == '\n' {
			continue
		}
		br.UnreadByte()
		if c == '{' {
			data, err := io.ReadAll(br)
			if err != nil {
				return nil, err
			}
			t := &Table{}
			return t, t.UnmarshalJSON(data)
		}
		return readCSV(br)
	}
}

func readCSV(br *bufio.Reader) (*Table, error) {
	first, err := br.ReadString('\n')
	if err != nil && err != io.EOF {
		return nil, fmt.Errorf("%w: %w", ErrMerge, err)
	}
	spec, ok := strings.CutPrefix(strings.TrimRight(first, "\r\n"), csvMagic)
	if !ok {
		return nil, fmt.Errorf("%w: CSV without the line %q…: not the output of a tcpfluid sweep (or of one older than replications)", ErrMerge, strings.TrimSpace(csvMagic))
	}
	var h headerJSON
	dec := json.NewDecoder(strings.NewReader(spec))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&h); err != nil {
		return nil, fmt.Errorf("%w: CSV line 1: %w", ErrMerge, err)
	}
	t := &Table{Axes: h.Axes, Metrics: h.Metrics, Shards: 1, Format: "csv"}
	t.absorb(h)
	if h.Shard != "" {
		if t.Shard, t.Shards, err = ParseShard(h.Shard); err != nil {
			return nil, fmt.Errorf("%w: CSV line 1: %w", ErrMerge, err)
		}
	}
	if err := t.checkColumns(); err != nil {
		return nil, err
	}
	cr := csv.NewReader(br)
	cr.Comment = '#'
	header, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("%w: CSV header: %w", ErrMerge, err)
	}
	if want := t.Columns(); !slices.Equal(header, want) {
		return nil, fmt.Errorf("%w: CSV header %q, want %q (the columns of the sweep on line 1)", ErrMerge, strings.Join(header, ","), strings.Join(want, ","))
	}
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			return t, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrMerge, err)
		}
		line, _ := cr.FieldPos(0)
		line++ // the spec line
		r := Row{Params: make([]float64, len(t.Axes)), Error: rec[len(rec)-1]}
		if r.Point, err = strconv.Atoi(rec[0]); err != nil || r.Point < 0 || r.Point >= MaxPoints {
			return nil, fmt.Errorf("%w: CSV line %d: point %q, want a whole number from 0 to %d", ErrMerge, line, rec[0], MaxPoints-1)
		}
		for k := range t.Axes {
			if r.Params[k], err = parseFinite(rec[1+k]); err != nil {
				return nil, fmt.Errorf("%w: CSV line %d: %s = %q: %w", ErrMerge, line, t.Axes[k].Name, rec[1+k], err)
			}
		}
		cells := make([]*float64, len(header)-2-len(t.Axes))
		for k := range cells {
			s := rec[1+len(t.Axes)+k]
			if s == "" {
				continue
			}
			v, err := parseFinite(s)
			if err != nil {
				return nil, fmt.Errorf("%w: CSV line %d: %s = %q: %w", ErrMerge, line, header[1+len(t.Axes)+k], s, err)
			}
			cells[k] = &v
		}
		t.setCells(&r, cells)
		t.Rows = append(t.Rows, r)
	}
}

func parseFinite(s string) (float64, error) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, errors.New("want a finite number")
	}
	return v, nil
}
