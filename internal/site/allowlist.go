package site

import "strings"

// What a report page's body may hold. Anything else is taken out: an
// element that runs or loads script (dropElements) with everything in it,
// any other element not listed here without its tag, its text and
// children kept (a marquee, a custom element), and any attribute not
// listed here. Listing what is known to be inert, rather than what is known
// to run, means markup that some browser reads in a new way (Chromium's
// customizable select) is not let through because nobody listed it.

// dropElements are removed with everything in them: they run or load
// script or documents, change where the page's URLs point, or hide
// content that only shows without script.
var dropElements = map[string]bool{
	"script": true, "iframe": true, "frame": true, "frameset": true, "object": true, "embed": true, "applet": true,
	"base": true, "meta": true, "link": true, "template": true, "portal": true, "form": true, "fencedframe": true,
	"noscript": true, "noembed": true, "noframes": true, "param": true,
	// SVG animation can set an attribute (an href) to a javascript: URL.
	"animate": true, "set": true, "animatemotion": true, "animatetransform": true, "animatecolor": true,
	"handler": true, "listener": true, "discard": true,
	// MathML's annotation-xml can hold HTML or SVG in its own parsing mode.
	"annotation-xml": true,
}

// htmlElements are the HTML elements kept with their tag.
var htmlElements = words(`a abbr address article aside audio b bdi bdo big blockquote br button caption center cite code col
	colgroup data datalist dd del details dfn dialog div dl dt em fieldset figcaption figure font footer h1 h2 h3 h4 h5 h6
	header hgroup hr i img input ins kbd label legend li main map area mark menu meter nav ol optgroup option output p
	picture pre progress q rp rt ruby s samp search section select small source span strike strong style sub summary sup
	table tbody td textarea tfoot th thead time tr track tt u ul var video wbr`)

// svgElements are the SVG elements kept (compared lower-cased).
var svgElements = words(`svg a circle clippath defs desc ellipse feblend fecolormatrix fecomponenttransfer fecomposite
	feconvolvematrix fediffuselighting fedisplacementmap fedistantlight fedropshadow feflood fefunca fefuncb fefuncg fefuncr
	fegaussianblur feimage femerge femergenode femorphology feoffset fepointlight fespecularlighting fespotlight fetile
	feturbulence filter foreignobject g image line lineargradient marker mask path pattern polygon polyline radialgradient
	rect stop style switch symbol text textpath title tspan use view`)

// mathElements are the MathML elements kept.
var mathElements = words(`math annotation maligngroup malignmark menclose merror mfenced mfrac mi mlabeledtr mmultiscripts
	mn mo mover mpadded mphantom mprescripts mroot mrow ms mspace msqrt mstyle msub msubsup msup mtable mtd mtext mtr munder
	munderover none semantics`)

// htmlAttrs are the HTML attributes kept, on any element (besides aria-*
// and data-*). name is not among them: <img name=getElementById> would
// replace the document's method of that name for the page's own scripts.
var htmlAttrs = words(`abbr align alt axis bgcolor border cellpadding cellspacing char charoff checked cite class clear
	color cols colspan compact controls coords datetime decoding default dir disabled face for frame headers height hidden
	high href hreflang id kind label lang loading loop low max maxlength media min minlength multiple muted noshade nowrap
	open optimum placeholder poster preload readonly rel reversed role rows rowspan rules scope selected shape size sizes span
	src srclang srcset start step style summary tabindex target title translate type valign value width wrap xmlns`)

// svgAttrs are the SVG attributes kept (compared lower-cased; a namespaced
// one as prefix:name).
var svgAttrs = words(`alignment-baseline baseline-shift class clip clip-path clip-rule clippathunits color
	color-interpolation color-interpolation-filters color-rendering cx cy d direction display dominant-baseline dx dy
	fill fill-opacity fill-rule filter filterunits flood-color flood-opacity font-family font-size font-size-adjust
	font-stretch font-style font-variant font-weight fr fx fy gradienttransform gradientunits height href id image-rendering
	in in2 k1 k2 k3 k4 kernelmatrix lang letter-spacing lighting-color marker-end marker-mid marker-start markerheight
	markerunits markerwidth mask maskcontentunits maskunits mode opacity operator offset orient overflow paint-order
	pathlength patterncontentunits patterntransform patternunits points preserveaspectratio primitiveunits r radius
	refx refy result role rotate rx ry scale shape-rendering spreadmethod startoffset stddeviation stop-color stop-opacity
	stroke stroke-dasharray stroke-dashoffset stroke-linecap stroke-linejoin stroke-miterlimit stroke-opacity stroke-width
	style systemlanguage tabindex text-anchor text-decoration text-rendering textlength transform transform-origin type
	unicode-bidi values vector-effect version viewbox visibility width word-spacing writing-mode x x1 x2 xlink:href
	xlink:title xml:lang xml:space xmlns xmlns:xlink y y1 y2`)

// mathAttrs are the MathML attributes kept.
var mathAttrs = words(`accent accentunder align bevelled class close columnalign columnlines columnspacing columnspan
	denomalign depth dir display displaystyle encoding fence frame height id largeop linethickness lspace mathbackground
	mathcolor mathsize mathvariant maxsize minsize movablelimits notation numalign open rowalign rowlines rowspacing rowspan
	rspace scriptlevel scriptminsize scriptsizemultiplier selection separator separators stretchy style subscriptshift
	superscriptshift symmetric voffset width xmlns`)

// urlAttrs are attributes whose value is a URL (or a list of them),
// checked by safeURL (srcset by safeSrcset).
var urlAttrs = map[string]bool{
	"href": true, "src": true, "action": true, "formaction": true, "data": true, "poster": true, "background": true,
	"lowsrc": true, "dynsrc": true, "cite": true, "codebase": true, "ping": true, "srcset": true, "xlink:href": true,
}

// keepElement says what becomes of an element of namespace ns ("" for
// HTML, "svg", "math") named name (lower-cased): kept, or dropped with
// everything in it; neither means it is unwrapped. also are the elements
// of dropElements that a kind of page keeps, its contents cleaned in turn
// (a comparison page's templates).
func keepElement(ns, name string, also map[string]bool) (keep, drop bool) {
	if ns == "" && also[name] {
		return true, false
	}
	if dropElements[name] {
		return false, true
	}
	switch ns {
	case "":
		return htmlElements[name], false
	case "svg":
		return svgElements[name], false
	case "math":
		return mathElements[name], false
	}
	return false, false
}

// keepAttr reports whether an element of namespace ns may carry attribute
// key (lower-cased, prefix:name when namespaced) with value v.
func keepAttr(ns, key, v string) bool {
	var listed bool
	switch ns {
	case "":
		listed = htmlAttrs[key] || strings.HasPrefix(key, "aria-") || strings.HasPrefix(key, "data-") && len(key) > len("data-")
	case "svg":
		listed = svgAttrs[key] || strings.HasPrefix(key, "aria-")
	case "math":
		listed = mathAttrs[key]
	}
	switch {
	case !listed, strings.HasPrefix(key, "on"):
		return false
	case key == "srcset":
		return safeSrcset(v)
	case urlAttrs[key]:
		return safeURL(v)
	case key == "style":
		return !unsafeStyle(v)
	}
	return true
}

// words is the set of the space-separated words of s.
func words(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}
