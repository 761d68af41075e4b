package ui

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"tengen/clock"
	"tengen/engine"
	"tengen/referee"
)

// SetupScreen is the game's set-up: rules preset, komi, handicap, board size, time control, players,
// event, round and table. Changing the rules or the handicap puts that preset's komi in.
type SetupScreen struct {
	Rules       *widget.Select
	Komi        *widget.Entry
	Handicap    *widget.Select
	Size        *widget.Select
	TimeControl *widget.SelectEntry
	ControlText *widget.Label  // the time control in words
	Policy      *widget.Select // what an illegal move costs (policyLabels)
	BlackName   *widget.Entry
	BlackRank   *widget.Entry
	WhiteName   *widget.Entry
	WhiteRank   *widget.Entry
	Event       *widget.Entry
	Round       *widget.Entry
	Table       *widget.Entry
	Start       *widget.Button
	Message     *widget.Label
	// Scroll holds the form; KeyboardSlot is where the on-screen keyboard's toggle goes.
	Scroll       *container.Scroll
	KeyboardSlot *fyne.Container
	content      fyne.CanvasObject
	onStart      func(referee.Setup) error
}

// policyLabel is how the set-up screen names an illegal-move policy.
func policyLabel(p referee.Policy) string {
	switch p {
	case referee.PolicyLoss:
		return tr("Loss (Japanese rules art. 14)")
	case referee.PolicyWarning:
		return tr("Warning: the stone is taken back")
	case referee.PolicyDirector:
		return tr("Halt for the director")
	}
	return tr("Retract and pass (AGA rule 8)")
}

// policyOf is the policy a label of policyLabel names.
func policyOf(label string) referee.Policy {
	for _, p := range referee.Policies() {
		if policyLabel(p) == label {
			return p
		}
	}
	return ""
}

// defaultControl is the time control a rules preset suggests.
func defaultControl(rules string) string {
	switch rules {
	case "aga", "aga-territory":
		return "aga-min-byoyomi"
	case "japanese", "chinese", "new-zealand":
		return "egf-b-byoyomi"
	}
	return "30m+5x30s"
}

// controlField is what the time-control field shows for a time control: a tournament preset's
// name ("egf-a-byoyomi", a configuration id) as its compact form ("60m+5x30s"), which players can
// read and change; the words under the field say it in the screen's language.
func controlField(tc string) string {
	for _, n := range clock.PresetNames() {
		if strings.EqualFold(n, tc) {
			if c, err := clock.Preset(n); err == nil {
				return c.String()
			}
		}
	}
	return tc
}

// controlChoices are the time controls the field's list offers: two common ones and every
// tournament preset, in their compact form, each once.
func controlChoices() []string {
	out := []string{"30m+5x30s", "60m+5x30s"}
	for _, n := range clock.PresetNames() {
		if f := controlField(n); !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out
}

// NewSetupScreen builds the set-up screen from a starting set-up (zero fields get defaults). onStart
// receives the completed set-up; an error it returns is shown and the form stays.
func NewSetupScreen(initial referee.Setup, onStart func(referee.Setup) error, onBack func()) *SetupScreen {
	s := &SetupScreen{onStart: onStart}
	var ruleLabels []string
	for _, n := range engine.PresetNames() {
		ruleLabels = append(ruleLabels, rulesName(n))
	}
	s.Rules = widget.NewSelect(ruleLabels, nil)
	s.Komi = widget.NewEntry()
	s.Handicap = widget.NewSelect([]string{"0", "2", "3", "4", "5", "6", "7", "8", "9"}, nil)
	s.Size = widget.NewSelect([]string{"9", "13", "19"}, nil)
	s.TimeControl = widget.NewSelectEntry(controlChoices())
	var labels []string
	for _, p := range referee.Policies() {
		labels = append(labels, policyLabel(p))
	}
	s.Policy = widget.NewSelect(labels, nil)
	for _, sel := range []*widget.Select{s.Rules, s.Handicap, s.Size, s.Policy} {
		sel.PlaceHolder = tr("Choose") // not Fyne's own "(Select one)", which is not translated
	}
	s.BlackName, s.BlackRank = widget.NewEntry(), widget.NewEntry()
	s.WhiteName, s.WhiteRank = widget.NewEntry(), widget.NewEntry()
	s.Event, s.Round, s.Table = widget.NewEntry(), widget.NewEntry(), widget.NewEntry()
	s.BlackName.SetPlaceHolder(tr("Black"))
	s.WhiteName.SetPlaceHolder(tr("White"))
	s.BlackRank.SetPlaceHolder("5k")
	s.WhiteRank.SetPlaceHolder("3d")
	s.Message = widget.NewLabel("")
	s.Message.Wrapping = fyne.TextWrapWord
	s.Message.Importance = widget.DangerImportance
	s.Message.Hide()

	rules := initial.Rules
	if rules == "" {
		rules = "aga"
	}
	size := initial.Size
	if size == 0 {
		size = 19
	}
	s.SelectRules(rules)
	s.Size.SetSelected(strconv.Itoa(size))
	s.Handicap.SetSelected(strconv.Itoa(initial.Handicap))
	if initial.Handicap == 1 {
		s.Handicap.SetSelected("0")
	}
	s.fillKomi()
	if initial.Komi != nil {
		s.Komi.SetText(localFloat(*initial.Komi))
	}
	tc := initial.TimeControl
	if tc == "" {
		tc = defaultControl(rules)
	}
	s.ControlText = widget.NewLabel("")
	s.ControlText.Wrapping = fyne.TextWrapWord
	s.TimeControl.OnChanged = func(string) { s.sayControl() }
	s.TimeControl.SetText(controlField(tc))
	s.sayControl()
	policy := initial.Policy
	if policy == "" {
		policy = referee.DefaultPolicy(rules)
	}
	s.Policy.SetSelected(policyLabel(policy))
	s.BlackName.SetText(initial.Black.Name)
	s.BlackRank.SetText(initial.Black.Rank)
	s.WhiteName.SetText(initial.White.Name)
	s.WhiteRank.SetText(initial.White.Rank)
	s.Event.SetText(initial.Event)
	s.Round.SetText(initial.Round)
	s.Table.SetText(initial.Table)
	// Sensible defaults follow the preset: its komi (even or handicap) and its usual time control.
	s.Rules.OnChanged = func(string) {
		r := s.RulesPreset()
		s.fillKomi()
		s.TimeControl.SetText(controlField(defaultControl(r)))
		s.Policy.SetSelected(policyLabel(referee.DefaultPolicy(r)))
	}
	s.Handicap.OnChanged = func(string) { s.fillKomi() }

	s.Start = widget.NewButton(tr("Start the game"), s.submit)
	s.Start.Importance = widget.HighImportance
	back := widget.NewButton(tr("Back"), func() {
		if onBack != nil {
			onBack()
		}
	})
	form := widget.NewForm(
		widget.NewFormItem(tr("Rules"), s.Rules),
		widget.NewFormItem(tr("Komi"), s.Komi),
		widget.NewFormItem(tr("Handicap"), s.Handicap),
		widget.NewFormItem(tr("Board size"), s.Size),
		widget.NewFormItem(tr("Time control"), container.NewVBox(s.TimeControl, s.ControlText)),
		widget.NewFormItem(tr("Illegal move"), s.Policy),
		widget.NewFormItem(tr("Black"), container.NewBorder(nil, nil, nil, sized(s.BlackRank, 90), s.BlackName)),
		widget.NewFormItem(tr("White"), container.NewBorder(nil, nil, nil, sized(s.WhiteRank, 90), s.WhiteName)),
		widget.NewFormItem(tr("Event"), s.Event),
		widget.NewFormItem(tr("Round"), container.NewGridWithColumns(3, s.Round, widget.NewLabel(tr("Table")), s.Table)),
	)
	title := widget.NewLabelWithStyle(tr("Game set-up"), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	s.KeyboardSlot = container.NewStack()
	buttons := container.NewGridWithColumns(3, back, s.KeyboardSlot, s.Start)
	s.Scroll = container.NewVScroll(form)
	s.content = container.NewBorder(title, container.NewVBox(s.Message, buttons), nil, nil, s.Scroll)
	return s
}

// sayControl puts the time control in words under its field (nothing while it cannot be read).
func (s *SetupScreen) sayControl() {
	c, err := clock.ParseControlOrPreset(strings.TrimSpace(s.TimeControl.Text))
	text := ""
	if err == nil {
		text = controlText(c)
	}
	if s.ControlText.Text != text {
		s.ControlText.SetText(text)
	}
}

// RulesPreset is the engine preset the rules selector names.
func (s *SetupScreen) RulesPreset() string {
	for _, n := range engine.PresetNames() {
		if rulesName(n) == s.Rules.Selected {
			return n
		}
	}
	return s.Rules.Selected
}

// SelectRules selects an engine preset by its name.
func (s *SetupScreen) SelectRules(preset string) { s.Rules.SetSelected(rulesName(preset)) }

// sized gives o a fixed minimum width inside border layouts.
func sized(o fyne.CanvasObject, w float32) fyne.CanvasObject {
	return container.NewGridWrap(fyne.NewSize(w, o.MinSize().Height), o)
}

// Content is the screen's root object.
func (s *SetupScreen) Content() fyne.CanvasObject { return s.content }

// fillKomi puts the preset's komi for the chosen handicap in the komi field.
func (s *SetupScreen) fillKomi() {
	r, err := engine.Preset(s.RulesPreset())
	if err != nil {
		return
	}
	k := r.Komi
	if h, _ := strconv.Atoi(s.Handicap.Selected); h >= 2 {
		k = r.HandicapKomi
	}
	s.Komi.SetText(localFloat(k))
}

// Setup reads the form; errors name the field.
func (s *SetupScreen) Setup() (referee.Setup, error) {
	var out referee.Setup
	out.Rules = s.RulesPreset()
	if _, err := engine.Preset(out.Rules); err != nil {
		return out, fmt.Errorf("%s: %w", tr("Rules"), err)
	}
	komi, err := strconv.ParseFloat(strings.ReplaceAll(strings.TrimSpace(s.Komi.Text), ",", "."), 64)
	if err != nil || komi < -50 || komi > 50 || komi*2 != float64(int(komi*2)) {
		return out, fmt.Errorf("%s", tr("Komi must be a number of half points, e.g. 6.5"))
	}
	out.Komi = &komi
	out.Handicap, _ = strconv.Atoi(s.Handicap.Selected)
	out.Size, _ = strconv.Atoi(s.Size.Selected)
	tc := strings.TrimSpace(s.TimeControl.Text)
	if tc != "" {
		if _, err := clock.ParseControlOrPreset(tc); err != nil {
			return out, fmt.Errorf("%s: %w", tr("Time control"), err)
		}
	}
	out.TimeControl = tc
	out.Policy = policyOf(s.Policy.Selected)
	out.Black = referee.Player{Name: strings.TrimSpace(s.BlackName.Text), Rank: strings.TrimSpace(s.BlackRank.Text)}
	out.White = referee.Player{Name: strings.TrimSpace(s.WhiteName.Text), Rank: strings.TrimSpace(s.WhiteRank.Text)}
	out.Event = strings.TrimSpace(s.Event.Text)
	out.Round = strings.TrimSpace(s.Round.Text)
	out.Table = strings.TrimSpace(s.Table.Text)
	return out, nil
}

func (s *SetupScreen) submit() {
	st, err := s.Setup()
	if err == nil && s.onStart != nil {
		err = s.onStart(st)
	}
	if err != nil {
		s.Message.SetText(err.Error())
		s.Message.Show()
		return
	}
	s.Message.SetText("")
	s.Message.Hide()
}
