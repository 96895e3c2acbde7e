// Command oracle-go: go/types as the oracle for drsg's Go CALLS (bench/oracle-go-section.ts).
// For every package directory of every module under DIR (a go.mod at DIR's root, nested go.mod
// files are modules of their own), the files go/build selects by default (build tags, GOOS /
// GOARCH of this machine) are type-checked — the package with its in-package _test.go files, and
// its external test package (package x_test) apart — and every call whose callee is an identifier
// or a selector (through parentheses and generic instantiation) is written as one JSON line: the
// file (relative to DIR), line and column of the callee's name token, the name, and the object
// it denotes (info.Uses): its kind, file, line, name, and whether it is declared in the tree.
// The standard library is imported from export data when the toolchain ships it, else from
// source; any other import outside the tree is an empty package, and type errors are ignored so
// that checking goes on. Each checked file is also listed ({"checked": file}).
//
//	go run bench/oracle-go/main.go DIR
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

type site struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Col     int    `json:"col"`
	Name    string `json:"name"`
	Kind    string `json:"kind"` // func, method, iface (interface method), var, type, builtin, none
	TFile   string `json:"tfile,omitempty"`
	TLine   int    `json:"tline,omitempty"`
	TName   string `json:"tname,omitempty"`
	InTree  bool   `json:"intree"`
	Package string `json:"pkg"`
}

type module struct {
	path string // module path from go.mod
	dir  string // absolute directory
}

var (
	root    string
	fset    = token.NewFileSet()
	modules []module
	std     types.Importer
	stdSrc  types.Importer
	pkgs    = map[string]*types.Package{} // in-tree (non-test) and fake packages by import path
	busy    = map[string]bool{}
	parsed  = map[string]*ast.File{}
	out     *bufio.Writer
	checked = map[string]bool{}
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: oracle-go DIR")
		os.Exit(2)
	}
	var err error
	root, err = filepath.Abs(os.Args[1])
	if err != nil {
		fatal(err)
	}
	if root, err = filepath.EvalSymlinks(root); err != nil {
		fatal(err)
	}
	std = importer.ForCompiler(fset, "gc", nil)
	stdSrc = importer.ForCompiler(fset, "source", nil)
	out = bufio.NewWriterSize(os.Stdout, 1<<20)
	defer out.Flush()

	var dirs []string
	_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			name := d.Name()
			if p != root && (strings.HasPrefix(name, ".") || name == "vendor" || name == "testdata" || name == "node_modules") {
				return filepath.SkipDir
			}
			dirs = append(dirs, p)
			return nil
		}
		if d.Name() == "go.mod" {
			if mp := modulePath(p); mp != "" {
				modules = append(modules, module{mp, filepath.Dir(p)})
			}
		}
		return nil
	})
	// Longest directory first: the innermost module owns a directory.
	sort.Slice(modules, func(i, j int) bool { return len(modules[i].dir) > len(modules[j].dir) })
	if len(modules) == 0 {
		fatal(errors.New("no go.mod under " + root))
	}
	for _, d := range dirs {
		checkDir(d)
	}
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "oracle-go:", err)
	os.Exit(1)
}

func modulePath(gomod string) string {
	b, err := os.ReadFile(gomod)
	if err != nil {
		return ""
	}
	for _, l := range strings.Split(string(b), "\n") {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "module") {
			f := strings.Fields(strings.TrimPrefix(l, "module"))
			if len(f) > 0 {
				return strings.Trim(f[0], `"`)
			}
		}
	}
	return ""
}

// importPathOf is the import path of a directory in the tree ("" when no module holds it).
func importPathOf(dir string) string {
	for _, m := range modules {
		if dir == m.dir {
			return m.path
		}
		if strings.HasPrefix(dir, m.dir+string(filepath.Separator)) {
			rel, _ := filepath.Rel(m.dir, dir)
			return m.path + "/" + filepath.ToSlash(rel)
		}
	}
	return ""
}

// dirOf is the tree directory of an import path, if a module of the tree holds it.
func dirOf(ip string) (string, bool) {
	best := -1
	for i, m := range modules {
		if ip == m.path || strings.HasPrefix(ip, m.path+"/") {
			if best < 0 || len(m.path) > len(modules[best].path) {
				best = i
			}
		}
	}
	if best < 0 {
		return "", false
	}
	m := modules[best]
	d := filepath.Join(m.dir, filepath.FromSlash(strings.TrimPrefix(strings.TrimPrefix(ip, m.path), "/")))
	if st, err := os.Stat(d); err != nil || !st.IsDir() {
		return "", false
	}
	return d, true
}

func isStd(ip string) bool {
	first := strings.SplitN(ip, "/", 2)[0]
	return !strings.Contains(first, ".") && ip != "C"
}

type imp struct{}

func (imp) Import(p string) (*types.Package, error) { return imp{}.ImportFrom(p, "", 0) }

func (imp) ImportFrom(p, _ string, _ types.ImportMode) (*types.Package, error) {
	if p == "unsafe" {
		return types.Unsafe, nil
	}
	if pk, ok := pkgs[p]; ok {
		return pk, nil
	}
	if d, ok := dirOf(p); ok && !busy[p] {
		busy[p] = true
		pk := checkLib(d, p)
		busy[p] = false
		if pk != nil {
			pkgs[p] = pk
			return pk, nil
		}
	}
	if isStd(p) {
		if pk, err := std.Import(p); err == nil {
			return pk, nil
		}
		if pk, err := stdSrc.Import(p); err == nil {
			return pk, nil
		}
	}
	// Outside the tree and the standard library: an empty package, so that checking goes on.
	name := path.Base(p)
	if len(name) > 1 && name[0] == 'v' && strings.Trim(name[1:], "0123456789") == "" {
		name = path.Base(path.Dir(p))
	}
	name = strings.TrimPrefix(name, "go-")
	name = strings.Map(func(r rune) rune {
		if r == '-' || r == '.' {
			return -1
		}
		return r
	}, name)
	pk := types.NewPackage(p, name)
	pk.MarkComplete()
	pkgs[p] = pk
	return pk, nil
}

func parse(file string) *ast.File {
	if f, ok := parsed[file]; ok {
		return f
	}
	f, _ := parser.ParseFile(fset, file, nil, parser.ParseComments|parser.AllErrors)
	parsed[file] = f
	return f
}

func parseAll(dir string, names []string) []*ast.File {
	var fs []*ast.File
	for _, n := range names {
		if f := parse(filepath.Join(dir, n)); f != nil {
			fs = append(fs, f)
		}
	}
	return fs
}

func conf() *types.Config {
	return &types.Config{Importer: imp{}, Error: func(error) {}, FakeImportC: false}
}

// selected: go/build's default choice of files in a directory. On several packages in one
// directory (a stray `package main` without a build tag), the files of the package named most.
func selected(dir string) (lib, tests, xtests []string, ok bool) {
	bp, err := build.Default.ImportDir(dir, build.ImportComment)
	var mp *build.MultiplePackageError
	if errors.As(err, &mp) {
		count := map[string]int{}
		for _, p := range mp.Packages {
			count[p]++
		}
		best := ""
		for p, c := range count {
			if !strings.HasSuffix(p, "_test") && (best == "" || c > count[best] || (c == count[best] && p < best)) {
				best = p
			}
		}
		for i, f := range mp.Files {
			switch p := mp.Packages[i]; {
			case p == best && strings.HasSuffix(f, "_test.go"):
				tests = append(tests, f)
			case p == best:
				lib = append(lib, f)
			case p == best+"_test":
				xtests = append(xtests, f)
			}
		}
		// MultiplePackageError lists files before tag matching: keep those go/build would select.
		keep := func(list []string) []string {
			var o []string
			for _, f := range list {
				if m, _ := build.Default.MatchFile(dir, f); m {
					o = append(o, f)
				}
			}
			return o
		}
		return keep(lib), keep(tests), keep(xtests), len(lib)+len(tests)+len(xtests) > 0
	}
	if bp == nil || (err != nil && len(bp.GoFiles)+len(bp.CgoFiles)+len(bp.TestGoFiles)+len(bp.XTestGoFiles) == 0) {
		return nil, nil, nil, false
	}
	lib = append(append(lib, bp.GoFiles...), bp.CgoFiles...)
	return lib, bp.TestGoFiles, bp.XTestGoFiles, true
}

// checkLib: the package of a directory without its tests, as other packages import it.
func checkLib(dir, ip string) *types.Package {
	lib, _, _, ok := selected(dir)
	if !ok || len(lib) == 0 {
		return nil
	}
	pk, _ := conf().Check(ip, fset, parseAll(dir, lib), nil)
	return pk
}

func checkDir(dir string) {
	lib, tests, xtests, ok := selected(dir)
	if !ok {
		return
	}
	ip := importPathOf(dir)
	if ip == "" {
		return
	}
	if files := parseAll(dir, append(append([]string{}, lib...), tests...)); len(files) > 0 {
		emit(ip, files)
	}
	if files := parseAll(dir, xtests); len(files) > 0 {
		emit(ip+"_test", files)
	}
}

func emit(ip string, files []*ast.File) {
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
	_, _ = conf().Check(ip, fset, files, info)
	for _, f := range files {
		rel := relFile(fset.Position(f.Pos()).Filename)
		if checked[rel] {
			continue
		}
		checked[rel] = true
		writeJSON(map[string]string{"checked": rel})
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			id := calleeName(call.Fun)
			if id == nil {
				return true
			}
			pos := fset.Position(id.Pos())
			s := site{File: rel, Line: pos.Line, Col: pos.Column, Name: id.Name, Kind: "none", Package: ip}
			if obj := info.Uses[id]; obj != nil {
				describe(&s, obj)
			}
			writeJSON(s)
			return true
		})
	}
}

func describe(s *site, obj types.Object) {
	switch o := obj.(type) {
	case *types.Func:
		s.Kind = "func"
		if sig, ok := o.Type().(*types.Signature); ok && sig.Recv() != nil {
			s.Kind = "method"
			if types.IsInterface(sig.Recv().Type()) {
				s.Kind = "iface"
			}
		}
		obj = o.Origin()
	case *types.Var:
		s.Kind = "var"
		obj = o.Origin()
	case *types.TypeName:
		s.Kind = "type"
	case *types.Builtin:
		s.Kind = "builtin"
		return
	default:
		s.Kind = "other"
	}
	if !obj.Pos().IsValid() {
		return
	}
	p := fset.Position(obj.Pos())
	s.TName = obj.Name()
	s.TLine = p.Line
	if r, ok := inTree(p.Filename); ok {
		s.TFile = r
		s.InTree = true
	} else {
		s.TFile = p.Filename
	}
}

// calleeName: the identifier naming the called thing — f, x.f, pkg.f, through (f), f[T] and f[T, U].
func calleeName(e ast.Expr) *ast.Ident {
	for {
		switch x := e.(type) {
		case *ast.ParenExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.Ident:
			return x
		case *ast.SelectorExpr:
			return x.Sel
		default:
			return nil
		}
	}
}

func inTree(file string) (string, bool) {
	if file == "" {
		return "", false
	}
	r, err := filepath.Rel(root, file)
	if err != nil || strings.HasPrefix(r, "..") {
		return "", false
	}
	return filepath.ToSlash(r), true
}

func relFile(file string) string {
	r, _ := inTree(file)
	return r
}

func writeJSON(v interface{}) {
	b, _ := json.Marshal(v)
	out.Write(b)
	out.WriteByte('\n')
}
