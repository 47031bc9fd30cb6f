package main

import (
	"fmt"
	"strconv"

	"github.com/urfave/cli/v2"

	"github.com/tcpfluid/tcpfluid/model"
)

type algoInfo struct {
	Name        string        `json:"name"`
	Description string        `json:"description"`
	Params      []model.Param `json:"params"`
}

func algosCommand() *cli.Command {
	return &cli.Command{
		Name:  "algos",
		Usage: "algorithms with their parameters, defaults, units and sources",
		Flags: []cli.Flag{formatFlag()},
		Action: func(c *cli.Context) error {
			format := outputFormat(c)
			var infos []algoInfo
			for _, name := range model.Algorithms() {
				a, err := model.New(name)
				if err != nil {
					return err
				}
				infos = append(infos, algoInfo{Name: name, Description: a.Describe(), Params: a.Params()})
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
