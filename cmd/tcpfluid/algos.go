package main

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/tcpfluid/tcpfluid/model"
)

type algoInfo struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Params      []model.Param   `json:"params"`
	Variants    []model.Variant `json:"variants"`
}

func algosCommand() *cli.Command {
	return &cli.Command{
		Name:  "algos",
		Usage: "algorithms with their parameters, defaults, units and sources, and their variants",
		Description: "A variant is an implementation's parameter set, named after the algorithm with an @: " +
			"cubic@linux runs CUBIC with the constants of Linux's tcp_cubic.c (what ns-2's TCP/Linux runs), " +
			"cubic@ns3 with ns-3's TcpCubic. Any command that takes an algorithm takes a variant; --param " +
			"cubic@linux.beta=0.75 changes one of its parameters.",
		Flags: []cli.Flag{formatFlag()},
		Action: func(c *cli.Context) error {
			format := outputFormat(c)
			var infos []algoInfo
			for _, name := range model.Algorithms() {
				a, err := model.New(name)
				if err != nil {
					return err
				}
				vs, _ := model.VariantsOf(name)
				if vs == nil {
					vs = []model.Variant{}
				}
				infos = append(infos, algoInfo{Name: name, Description: a.Describe(), Params: a.Params(), Variants: vs})
			}
			w := c.App.Writer
			switch format {
			case formatJSON:
				return writeJSON(w, map[string]any{"algorithms": infos})
			case formatCSV:
				cw := newCSV(w, "algorithm", "param", "default", "unit", "min", "max", "source")
				for _, a := range infos {
					for _, p := range a.Params {
						cw.row(a.Name, p.Name, full(p.Default), p.Unit, full(p.Min), full(p.Max), p.Source)
					}
					for _, v := range a.Variants {
						for _, k := range slices.Sorted(maps.Keys(v.Params)) {
							cw.row(a.Name+model.VariantSep+v.Name, k, full(v.Params[k]), "", "", "", v.Source)
						}
					}
				}
				return cw.flush()
			}
			for _, a := range infos {
				fmt.Fprintf(w, "%s — %s\n", a.Name, a.Description)
				tw := newTable(w)
				for _, p := range a.Params {
					fmt.Fprintf(tw, "  %s\t%s %s\t[%s, %s]\t%s\n", p.Name, num(p.Default), p.Unit, num(p.Min), num(p.Max), p.Source)
				}
				tw.Flush()
				for _, v := range a.Variants {
					var set []string
					for _, k := range slices.Sorted(maps.Keys(v.Params)) {
						set = append(set, k+" "+num(v.Params[k]))
					}
					if v.Recovery != model.RecoveryDefault {
						set = append(set, "recovery "+v.Recovery.String())
					}
					fmt.Fprintf(w, "  variant %s%s%s: %s (%s)\n", a.Name, model.VariantSep, v.Name, strings.Join(set, ", "), v.Source)
				}
			}
			return nil
		},
	}
}

// num writes v with six significant digits, for tables.
func num(v float64) string {
	if v != v {
		return "-"
	}
	return strconv.FormatFloat(v, 'g', 6, 64)
}
