package locale

import (
	"slices"
	"testing"
)

func TestLocales(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		want []string
	}{
		{"nothing set", nil, []string{"en-US"}},
		{"Debian default", map[string]string{"LANG": "C.UTF-8"}, []string{"en-US"}},
		{"POSIX", map[string]string{"LC_ALL": "POSIX"}, []string{"en-US"}},
		{"Polish", map[string]string{"LANG": "pl_PL.UTF-8"}, []string{"pl-PL"}},
		{"LC_ALL wins", map[string]string{"LANG": "pl_PL.UTF-8", "LC_ALL": "cs_CZ.UTF-8"}, []string{"cs-CZ"}},
		{"modifier", map[string]string{"LANG": "de_DE@euro"}, []string{"de-DE"}},
		{"LANGUAGE list first", map[string]string{"LANG": "bg_BG.UTF-8", "LANGUAGE": "ru_RU:bg_BG"}, []string{"ru-RU", "bg-BG"}},
		{"LANGUAGE ignored under C", map[string]string{"LANG": "C.UTF-8", "LANGUAGE": "ru_RU"}, []string{"en-US"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := locales(func(k string) string { return tt.env[k] })
			if !slices.Equal(got, tt.want) {
				t.Errorf("locales = %v, want %v", got, tt.want)
			}
		})
	}
}
