package dila

import "testing"

func TestDates(t *testing.T) {
	for _, c := range []struct {
		jdn     int
		cal     func(int) (int, int, int)
		name    string
		y, m, d int
	}{
		{2451545, GregorianDate, "G", 2000, 1, 1},
		{1721424, JulianDate, "J", 1, 1, 1},
		{1721423, JulianDate, "J", 0, 12, 31}, // 1 BCE
		{0, JulianDate, "J", -4712, 1, 1},
		{1721426, GregorianDate, "G", 1, 1, 1},
		{2299160, JulianDate, "J", 1582, 10, 4},
		{2299161, GregorianDate, "G", 1582, 10, 15},
		// 122 BCE: 122 years of 365 days and 31 leap years (0, -4 … -120)
		// before 1 CE.
		{1721424 - 122*365 - 31, JulianDate, "J", -121, 1, 1},
		{1721424 - 122*365 - 32, JulianDate, "J", -122, 12, 31},
		{2460311, GregorianDate, "G", 2024, 1, 1},
		{-1, JulianDate, "J", -4713, 12, 31},
	} {
		y, m, d := c.cal(c.jdn)
		if y != c.y || m != c.m || d != c.d {
			t.Errorf("%s(%d) = %d-%d-%d, want %d-%d-%d", c.name, c.jdn, y, m, d, c.y, c.m, c.d)
		}
	}
}

func TestCivilYear(t *testing.T) {
	// The Julian calendar runs to 1582-10-04; 1582-10-15 Gregorian follows.
	if y, m, d := CivilDate(2299160); y != 1582 || m != 10 || d != 4 {
		t.Errorf("CivilDate(2299160) = %d-%d-%d", y, m, d)
	}
	if y, m, d := CivilDate(2299161); y != 1582 || m != 10 || d != 15 {
		t.Errorf("CivilDate(2299161) = %d-%d-%d", y, m, d)
	}
	// 1 January 1 CE Julian is 30 December 1 BCE Gregorian; historians
	// call it year 1.
	if y := CivilYear(1721424); y != 1 {
		t.Errorf("CivilYear(1721424) = %d", y)
	}
}

func TestSexagenary(t *testing.T) {
	for gz, want := range map[string]int{"甲子": 0, "乙丑": 1, "癸酉": 9, "甲戌": 10, "辛巳": 17, "癸亥": 59, "壬戌": 58} {
		if n, err := Sexagenary(gz); err != nil || n != want {
			t.Errorf("Sexagenary(%s) = %d, %v; want %d", gz, n, err, want)
		}
	}
	for _, bad := range []string{"甲丑", "甲", "子甲", "甲子年"} {
		if _, err := Sexagenary(bad); err == nil {
			t.Errorf("Sexagenary(%s): no error", bad)
		}
	}
}

func TestLunarYear(t *testing.T) {
	for _, c := range []struct {
		gz   string
		jdn  int
		want int
	}{
		{"甲子", 1722884, 4},       // 4 CE, mid-year
		{"辛巳", 1641025, -219},    // 始皇 27, whose first month (十月) is in -220
		{"癸丑", 1981837, 713},     // 开元 1: proclaimed in the last month of 713
		{"辛巳", 1992113 - 5, 741}, // 开元 29: its last day is in January 742
	} {
		if y, err := LunarYear(c.gz, c.jdn); err != nil || y != c.want {
			t.Errorf("LunarYear(%s, %d) = %d, %v; want %d", c.gz, c.jdn, y, err, c.want)
		}
	}
	if _, err := LunarYear("甲子", 2451545); err == nil {
		t.Error("LunarYear(甲子, 2000) should fail: 1984 and 2044 are far")
	}
}
