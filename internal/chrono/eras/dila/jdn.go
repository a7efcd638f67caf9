package dila

import "fmt"

// GregorianStart is the Julian day number of 1582-10-15, the first day of
// the Gregorian calendar. Historians date earlier events in the Julian
// calendar, so CivilDate switches there.
const GregorianStart = 2299161

// JulianDate returns the Julian-calendar date of a Julian day number.
// Years are astronomical: 0 is 1 BCE, −121 is 122 BCE.
func JulianDate(jdn int) (year, month, day int) { return fromJDN(jdn, false) }

// GregorianDate returns the proleptic Gregorian date of a Julian day number.
func GregorianDate(jdn int) (year, month, day int) { return fromJDN(jdn, true) }

// CivilDate returns the date historians use: Julian before 1582-10-15,
// Gregorian from then on.
func CivilDate(jdn int) (year, month, day int) {
	return fromJDN(jdn, jdn >= GregorianStart)
}

// CivilYear is the year of CivilDate.
func CivilYear(jdn int) int {
	y, _, _ := CivilDate(jdn)
	return y
}

// fromJDN is Richards' algorithm (Explanatory Supplement to the
// Astronomical Almanac, 3rd ed., §15.11), with floored division so that it
// holds for day numbers before the epoch too.
func fromJDN(j int, gregorian bool) (year, month, day int) {
	f := j + 1401
	if gregorian {
		f += floorDiv(floorDiv(4*j+274277, 146097)*3, 4) - 38
	}
	e := 4*f + 3
	g := floorDiv(mod(e, 1461), 4)
	h := 5*g + 2
	day = floorDiv(mod(h, 153), 5) + 1
	month = mod(floorDiv(h, 153)+2, 12) + 1
	year = floorDiv(e, 1461) - 4716 + floorDiv(12+2-month, 12)
	return year, month, day
}

func floorDiv(a, b int) int {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

func mod(a, b int) int { return a - b*floorDiv(a, b) }

const (
	stems    = "甲乙丙丁戊己庚辛壬癸"
	branches = "子丑寅卯辰巳午未申酉戌亥"
)

// Sexagenary returns the position (0 for 甲子 … 59 for 癸亥) of a
// stem-branch pair.
func Sexagenary(gz string) (int, error) {
	r := []rune(gz)
	if len(r) != 2 {
		return 0, fmt.Errorf("sexagenary %q: two characters expected", gz)
	}
	s, b := indexRune(stems, r[0]), indexRune(branches, r[1])
	if s < 0 || b < 0 || s%2 != b%2 {
		return 0, fmt.Errorf("sexagenary %q: not a stem-branch pair", gz)
	}
	// The n in 0…59 with n ≡ s (mod 10) and n ≡ b (mod 12).
	return mod(6*s-5*b, 60), nil
}

func indexRune(s string, r rune) int {
	i := 0
	for _, c := range s {
		if c == r {
			return i
		}
		i++
	}
	return -1
}

// LunarYear returns the year, in the numbering of CivilYear, of the
// Chinese year named gz that has a day jdn. The name settles the year
// exactly: a month's first day may fall in January of the next Western
// year, or a year may start in the tenth month, but the year of 甲子 is
// always ≡ 4 (mod 60).
func LunarYear(gz string, jdn int) (int, error) {
	n, err := Sexagenary(gz)
	if err != nil {
		return 0, err
	}
	y := CivilYear(jdn)
	d := mod(n+4-y, 60) // years forward to the next year named gz
	if d > 30 {
		d -= 60
	}
	if d < -2 || d > 2 {
		return 0, fmt.Errorf("year %s is %d years from the date of day %d", gz, d, jdn)
	}
	return y + d, nil
}
