package sweep

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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
	// Metrics are the measured values in the order of the table's metrics; nil is a value
	// that does not exist at this point (JSON null, an empty CSV field).
	Metrics []*float64
}

// Table is the output of a sweep or of a merge: one row per point, sorted by point.
// Its JSON form is
//
//	{"spec": {"scenario": "seed000-dumbbell", "engine": "fluid", "seed": 1, "fingerprint": "…"},
//	 "axes": [{"name": "colo.gamma", "values": [0.5, 1]}], "metrics": ["throughput_bps"],
//	 "shard": "1/3", "rows": [{"point": 1, "colo.gamma": 1, "throughput_bps": 9.6e7}]}
//
// with "shard" only when Shards > 1; its CSV form (WriteCSV) has the header point, the
// axis names, the metric names, and one line per row.
type Table struct {
	// Scenario, Engine, Seed and Fingerprint describe the sweep; Fingerprint is a hash of
	// the base scenario, the bottleneck, the engine, the seed, the axes and the metrics, and
	// is "" when unknown (a table read from CSV).
	Scenario    string
	Engine      string
	Seed        uint64
	Fingerprint string
	// Axes hold the whole grid's values; an axis's Values are nil in a table read from CSV
	// until it is merged.
	Axes    []Axis
	Metrics []string
	// Shard of Shards is the part of the grid the rows cover; 0 of 1 is all of it.
	Shard, Shards int
	Rows          []Row
}

// Points is the number of points of the whole grid, or 0 when an axis's values are
// unknown (a table read from CSV).
func (t *Table) Points() int {
	n := 1
	for _, a := range t.Axes {
		n *= len(a.Values)
	}
	return n
}

// specJSON is the "spec" object of a sweep's JSON.
type specJSON struct {
	Scenario    string `json:"scenario"`
	Engine      string `json:"engine"`
	Seed        uint64 `json:"seed"`
	Fingerprint string `json:"fingerprint"`
}

type tableJSON struct {
	Spec    *specJSON         `json:"spec,omitempty"`
	Axes    []Axis            `json:"axes"`
	Metrics []string          `json:"metrics"`
	Shard   string            `json:"shard,omitempty"`
	Rows    []json.RawMessage `json:"rows"`
}

// MarshalJSON writes the table's JSON form (see Table): each row an object with the
// keys point, the axis names and the metric names, in that order.
func (t *Table) MarshalJSON() ([]byte, error) {
	out := tableJSON{Axes: t.Axes, Metrics: t.Metrics, Rows: make([]json.RawMessage, len(t.Rows))}
	if out.Axes == nil {
		out.Axes = []Axis{}
	}
	if t.Fingerprint != "" {
		out.Spec = &specJSON{Scenario: t.Scenario, Engine: t.Engine, Seed: t.Seed, Fingerprint: t.Fingerprint}
	}
	if t.Shards > 1 {
		out.Shard = fmt.Sprintf("%d/%d", t.Shard, t.Shards)
	}
	for i, r := range t.Rows {
		if len(r.Params) != len(t.Axes) || len(r.Metrics) != len(t.Metrics) {
			return nil, fmt.Errorf("%w: row of point %d has %d parameters and %d metrics, want %d and %d", ErrMerge, r.Point, len(r.Params), len(r.Metrics), len(t.Axes), len(t.Metrics))
		}
		var b bytes.Buffer
		fmt.Fprintf(&b, `{"point":%d`, r.Point)
		for k, a := range t.Axes {
			writeJSONField(&b, a.Name, &r.Params[k])
		}
		for k, m := range t.Metrics {
			writeJSONField(&b, m, r.Metrics[k])
		}
		b.WriteByte('}')
		out.Rows[i] = b.Bytes()
	}
	return json.Marshal(out)
}

func writeJSONField(b *bytes.Buffer, key string, v *float64) {
	k, _ := json.Marshal(key)
	b.WriteByte(',')
	b.Write(k)
	b.WriteByte(':')
	if v == nil {
		b.WriteString("null")
		return
	}
	// Values are finite (Sweep checks), so Marshal cannot fail.
	val, _ := json.Marshal(*v)
	b.Write(val)
}

// UnmarshalJSON reads the table's JSON form, checking that every row has exactly the
// keys point, the axis names and the metric names.
func (t *Table) UnmarshalJSON(data []byte) error {
	var in tableJSON
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&in); err != nil {
		return fmt.Errorf("%w: %w", ErrMerge, err)
	}
	*t = Table{Axes: in.Axes, Metrics: in.Metrics, Shards: 1, Rows: make([]Row, len(in.Rows))}
	if in.Spec != nil {
		t.Scenario, t.Engine, t.Seed, t.Fingerprint = in.Spec.Scenario, in.Spec.Engine, in.Spec.Seed, in.Spec.Fingerprint
	}
	if in.Shard != "" {
		var err error
		if t.Shard, t.Shards, err = ParseShard(in.Shard); err != nil {
			return fmt.Errorf("%w: %w", ErrMerge, err)
		}
	}
	if err := t.checkColumns(); err != nil {
		return err
	}
	for i, raw := range in.Rows {
		var fields map[string]*float64
		if err := json.Unmarshal(raw, &fields); err != nil {
			return fmt.Errorf("%w: rows[%d]: %w", ErrMerge, i, err)
		}
		if len(fields) != 1+len(t.Axes)+len(t.Metrics) {
			return fmt.Errorf("%w: rows[%d] has %d keys, want point, %d axes and %d metrics", ErrMerge, i, len(fields), len(t.Axes), len(t.Metrics))
		}
		pt := fields["point"]
		if pt == nil || *pt < 0 || *pt != math.Trunc(*pt) || *pt >= MaxPoints {
			return fmt.Errorf("%w: rows[%d].point = %v, want a whole number from 0 to %d", ErrMerge, i, pt, MaxPoints-1)
		}
		r := Row{Point: int(*pt), Params: make([]float64, len(t.Axes)), Metrics: make([]*float64, len(t.Metrics))}
		for k, a := range t.Axes {
			v, ok := fields[a.Name]
			if !ok || v == nil {
				return fmt.Errorf("%w: rows[%d] has no value of axis %s", ErrMerge, i, a.Name)
			}
			r.Params[k] = *v
		}
		for k, m := range t.Metrics {
			v, ok := fields[m]
			if !ok {
				return fmt.Errorf("%w: rows[%d] has no metric %s", ErrMerge, i, m)
			}
			r.Metrics[k] = v
		}
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
	}
	for i, m := range t.Metrics {
		if _, ok := metricFuncs[m]; !ok {
			return fmt.Errorf("%w: unknown metric %q, want one of %s", ErrMerge, m, strings.Join(AllMetrics, ", "))
		}
		if slices.Contains(t.Metrics[:i], m) {
			return fmt.Errorf("%w: metric %s appears twice", ErrMerge, m)
		}
	}
	return nil
}

// WriteCSV writes the table's CSV form: the header point, the axis names, the metric
// names, then one line per row; numbers in their shortest exact form, a missing metric
// as an empty field.
func (t *Table) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	header := []string{"point"}
	for _, a := range t.Axes {
		header = append(header, a.Name)
	}
	header = append(header, t.Metrics...)
	cw.Write(header)
	line := make([]string, len(header))
	for _, r := range t.Rows {
		line = line[:0]
		line = append(line, strconv.Itoa(r.Point))
		for _, v := range r.Params {
			line = append(line, strconv.FormatFloat(v, 'g', -1, 64))
		}
		for _, v := range r.Metrics {
			if v == nil {
				line = append(line, "")
				continue
			}
			line = append(line, strconv.FormatFloat(*v, 'g', -1, 64))
		}
		cw.Write(line)
	}
	cw.Flush()
	return cw.Error()
}

// Read reads a table in its JSON form (the first non-blank byte is '{') or its CSV
// form. A table read from CSV has no spec and no axis values: Merge recovers the
// values from the rows.
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

func readCSV(r io.Reader) (*Table, error) {
	cr := csv.NewReader(r)
	header, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("%w: CSV header: %w", ErrMerge, err)
	}
	if header[0] != "point" {
		return nil, fmt.Errorf("%w: CSV header %q, want point, the axis names and the metric names", ErrMerge, strings.Join(header, ","))
	}
	t := &Table{Shards: 1}
	for _, col := range header[1:] {
		if _, ok := metricFuncs[col]; ok {
			t.Metrics = append(t.Metrics, col)
		} else if len(t.Metrics) > 0 {
			return nil, fmt.Errorf("%w: CSV column %q after the metrics, want the parameters first", ErrMerge, col)
		} else {
			t.Axes = append(t.Axes, Axis{Name: col})
		}
	}
	if err := t.checkColumns(); err != nil {
		return nil, err
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
		r := Row{Params: make([]float64, len(t.Axes)), Metrics: make([]*float64, len(t.Metrics))}
		if r.Point, err = strconv.Atoi(rec[0]); err != nil || r.Point < 0 || r.Point >= MaxPoints {
			return nil, fmt.Errorf("%w: CSV line %d: point %q, want a whole number from 0 to %d", ErrMerge, line, rec[0], MaxPoints-1)
		}
		for k := range t.Axes {
			if r.Params[k], err = parseFinite(rec[1+k]); err != nil {
				return nil, fmt.Errorf("%w: CSV line %d: %s = %q: %w", ErrMerge, line, t.Axes[k].Name, rec[1+k], err)
			}
		}
		for k, m := range t.Metrics {
			s := rec[1+len(t.Axes)+k]
			if s == "" {
				continue
			}
			v, err := parseFinite(s)
			if err != nil {
				return nil, fmt.Errorf("%w: CSV line %d: %s = %q: %w", ErrMerge, line, m, s, err)
			}
			r.Metrics[k] = &v
		}
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
