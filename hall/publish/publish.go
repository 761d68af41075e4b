// Package publish is a kiosk's side of the hall: it publishes what the table's journal holds to
// the hall's MQTT broker (MQTT v5, QoS 1): every journal record as one event with its sequence
// number, the table's state (players, position, clocks, whose turn, last verdict, alerts, result)
// retained, and the game's live SGF retained. It remembers in a small file beside the journal the
// last sequence number the broker acknowledged, so that after a dropped network, a broker restart
// or a restart of the kiosk it goes on from there: nothing is lost, and what may be sent twice
// (a record sent but not yet acknowledged when the link dropped) carries the same sequence number,
// which the dashboard drops. It only reads the journal directory's files: the referee never waits
// for the network.
package publish

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/eclipse/paho.golang/autopaho"
	"github.com/eclipse/paho.golang/paho"

	"tengen/hall/link"
	"tengen/hall/wire"
	"tengen/referee"
	"tengen/referee/journal"
)

// StateFileName is the acknowledged-sequence file written in the journal directory.
const StateFileName = "hall-published.json"

// AssignmentFileName is where the table's latest assignment is kept, in the journal directory.
const AssignmentFileName = "hall-assignment.json"

// Options configures a publisher.
type Options struct {
	Hall       string
	Table      int
	JournalDir string // the table's journal directory (the journal and, by default, game.sgf)
	SGFPath    string // "" = JournalDir/game.sgf
	StateFile  string // "" = JournalDir/StateFileName
	URL        string // the broker: mqtt://host:1883 or mqtts://host:8883
	CAFile     string // with mqtts://: the hall's CA certificate (PEM); "" = the system's authorities
	User       string
	Password   string
	// Poll is how often the journal is looked at; 0 = 200ms.
	Poll time.Duration
	// OnError gets the connection's errors (a refused password: a *link.RefusedError).
	OnError func(error)
	// OnAssignment gets the table's assignment (players, colours, handicap, komi, time control)
	// each time the director publishes one, and at each connection while one is retained. It is
	// also kept in AssignmentFileName beside the journal.
	OnAssignment func(wire.Assignment)
	Logger       *slog.Logger
}

// acked is the state file's content.
type acked struct {
	Game string `json:"game"`
	Seq  uint64 `json:"seq"`
}

// Run publishes until ctx ends. It returns an error only for a configuration it cannot use; a
// broker that cannot be reached is retried for ever.
func Run(ctx context.Context, o Options) error {
	if err := wire.CheckHall(o.Hall); err != nil {
		return err
	}
	if o.Table < 1 || o.Table > wire.MaxTable {
		return fmt.Errorf("hall table %d: give 1 to %d", o.Table, wire.MaxTable)
	}
	if o.JournalDir == "" {
		return errors.New("publish: no journal directory")
	}
	if o.SGFPath == "" {
		o.SGFPath = filepath.Join(o.JournalDir, "game.sgf")
	}
	if o.StateFile == "" {
		o.StateFile = filepath.Join(o.JournalDir, StateFileName)
	}
	if o.Poll <= 0 {
		o.Poll = 200 * time.Millisecond
	}
	log := o.Logger
	if log == nil {
		log = slog.Default()
	}
	up := make(chan struct{}, 1)
	assignTopic := wire.AssignTopic(o.Hall, o.Table)
	cm, err := link.Dial(ctx, link.Options{URL: o.URL, CAFile: o.CAFile, ClientID: "tengen-" + o.Hall + "-table-" + strconv.Itoa(o.Table),
		User: o.User, Password: o.Password, SessionExpiry: time.Hour, Logger: log,
		OnUp: func(cm *autopaho.ConnectionManager) {
			select {
			case up <- struct{}{}:
			default:
			}
			go func() {
				sctx, cancel := context.WithTimeout(ctx, 10*time.Second)
				defer cancel()
				if _, err := cm.Subscribe(sctx, &paho.Subscribe{Subscriptions: []paho.SubscribeOptions{{Topic: assignTopic, QoS: 1}}}); err != nil {
					log.Warn("hall: subscribing to the table's assignment", "err", err)
				}
			}()
		},
		OnReceive: func(topic string, payload []byte) {
			if topic != assignTopic {
				return
			}
			a, err := wire.ParseAssignment(payload)
			if err != nil || a.Table != o.Table {
				log.Warn("hall: an assignment the table cannot use", "err", err, "table", a.Table)
				return
			}
			log.Info("hall assignment", "round", a.Round, "table", a.Table, "black", a.Black.Name, "white", a.White.Name,
				"handicap", a.Handicap, "komi", a.Komi, "time", a.TimeControl)
			if err := referee.WriteFileAtomic(filepath.Join(o.JournalDir, AssignmentFileName), payload, false); err != nil {
				log.Warn("hall: keeping the assignment", "err", err)
			}
			if o.OnAssignment != nil {
				o.OnAssignment(a)
			}
		}}, o.OnError)
	if err != nil {
		return err
	}
	p := &publisher{o: o, log: log, cm: cm, tail: &tail{path: filepath.Join(o.JournalDir, journal.FileName)}}
	p.ack = readAcked(o.StateFile)
	tick := time.NewTicker(o.Poll)
	defer tick.Stop()
	lastErr := ""
	for {
		select {
		case <-ctx.Done():
			dctx, cancel := context.WithTimeout(context.Background(), time.Second)
			_ = cm.Disconnect(dctx)
			cancel()
			<-cm.Done()
			return nil
		case <-up:
			p.fresh = true // the broker may have lost its retained messages: send them again
		case <-tick.C:
		}
		err := p.step(ctx)
		switch {
		case ctx.Err() != nil:
		case err != nil && err.Error() != lastErr:
			// Said once, not at every try: the broker away is retried quietly until it is back.
			log.Warn("hall publish: will try again", "err", err)
			lastErr = err.Error()
		case err == nil && lastErr != "":
			log.Info("hall publish: the broker has everything again")
			lastErr = ""
		}
	}
}

type publisher struct {
	o     Options
	log   *slog.Logger
	cm    *autopaho.ConnectionManager
	tail  *tail
	g     game
	queue []record // read, not yet acknowledged
	ack   acked
	fresh bool   // state and SGF must be sent whatever changed
	sent  uint64 // the game's seq of the last state sent
	sgf   []byte // the SGF last sent
}

// step reads what the journal gained, publishes the records the broker has not acknowledged,
// then the state and the SGF when they changed.
func (p *publisher) step(ctx context.Context) error {
	recs, reset, err := p.tail.next()
	if reset {
		p.g, p.queue, p.sent, p.sgf = game{}, nil, 0, nil
	}
	for _, r := range recs {
		p.g.add(r)
		p.queue = append(p.queue, r)
	}
	if err != nil {
		p.log.Warn("hall publish: reading the journal", "err", err)
	}
	if p.g.id == "" {
		return nil
	}
	if p.ack.Game != p.g.id {
		p.ack = acked{Game: p.g.id}
	}
	for len(p.queue) > 0 {
		r := p.queue[0]
		if r.Seq <= p.ack.Seq {
			p.queue = p.queue[1:]
			continue
		}
		b, err := json.Marshal(p.g.event(r))
		if err != nil {
			return err
		}
		if err := p.publish(ctx, wire.KindEvents, b, false); err != nil {
			return err
		}
		p.ack.Seq = r.Seq
		p.queue = p.queue[1:]
		if err := writeAcked(p.o.StateFile, p.ack); err != nil {
			p.log.Warn("hall publish: saving the acknowledged sequence", "err", err)
		}
	}
	sgfData, _ := os.ReadFile(p.o.SGFPath)
	if p.fresh || p.sent != p.g.seq || string(sgfData) != string(p.sgf) {
		b, err := json.Marshal(p.g.state(p.o.Hall, p.o.Table, sgfData))
		if err != nil {
			return err
		}
		if err := p.publish(ctx, wire.KindState, b, true); err != nil {
			return err
		}
		p.sent = p.g.seq
	}
	if len(sgfData) > 0 && (p.fresh || string(sgfData) != string(p.sgf)) {
		if err := p.publish(ctx, wire.KindSGF, sgfData, true); err != nil {
			return err
		}
		p.sgf = sgfData
	}
	p.fresh = false
	return nil
}

// publish sends one QoS 1 message and returns once the broker acknowledged it, or with the error.
func (p *publisher) publish(ctx context.Context, kind string, payload []byte, retain bool) error {
	pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	resp, err := p.cm.Publish(pctx, &paho.Publish{Topic: wire.TableTopic(p.o.Hall, p.o.Table, kind), QoS: 1, Retain: retain, Payload: payload})
	if err != nil {
		if resp != nil && resp.ReasonCode == 0x87 {
			return fmt.Errorf("the broker does not let user %q publish for table %d (the hall's ACL): %w", p.o.User, p.o.Table, err)
		}
		return fmt.Errorf("publishing %s: %w", kind, err)
	}
	return nil
}

func readAcked(path string) acked {
	var a acked
	b, err := os.ReadFile(path)
	if err != nil {
		return acked{}
	}
	if json.Unmarshal(b, &a) != nil {
		return acked{}
	}
	return a
}

// writeAcked replaces the state file. It is not fsynced: after a power cut an older sequence
// means records sent again, which the dashboard drops by their sequence numbers.
func writeAcked(path string, a acked) error {
	b, err := json.Marshal(a)
	if err != nil {
		return err
	}
	return referee.WriteFileAtomic(path, b, false)
}
