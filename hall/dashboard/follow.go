package dashboard

import (
	"context"
	"encoding/json"
	"log/slog"
	"time"

	"github.com/eclipse/paho.golang/autopaho"
	"github.com/eclipse/paho.golang/paho"

	"tengen/hall/link"
	"tengen/hall/wire"
)

// Follow subscribes the store to its hall's tables on the broker (QoS 1, a session the broker
// keeps for a day, so that what is published while the dashboard is away reaches it later) and
// feeds it every message until ctx ends. At each connection it also publishes the assignments
// given (retained, each on its table's assignment topic). It returns once the connection manager
// is started; the returned channel is closed when it has stopped.
func Follow(ctx context.Context, s *Store, o link.Options, onError func(error), assign ...wire.Assignment) (<-chan struct{}, error) {
	log := o.Logger
	if log == nil {
		log = slog.Default()
	}
	if o.ClientID == "" {
		o.ClientID = "tengen-hall-dashboard-" + s.Hall()
	}
	if o.SessionExpiry == 0 {
		o.SessionExpiry = 24 * time.Hour
	}
	o.OnReceive = func(topic string, payload []byte) {
		if err := s.Handle(topic, payload); err != nil {
			log.Warn("hall message refused", "topic", topic, "err", err)
		}
	}
	o.OnUp = func(cm *autopaho.ConnectionManager) {
		// Subscribed at every connection: a broker restarted without its persistence has forgotten
		// the session, and a new subscription brings the retained states again.
		go func() {
			sctx, cancel := context.WithTimeout(ctx, 10*time.Second)
			defer cancel()
			if _, err := cm.Subscribe(sctx, &paho.Subscribe{Subscriptions: []paho.SubscribeOptions{{Topic: wire.AllTables(s.Hall()), QoS: 1}}}); err != nil {
				log.Warn("hall subscription", "err", err)
			}
			for _, a := range assign {
				b, err := json.Marshal(a)
				if err != nil {
					continue
				}
				if _, err := cm.Publish(sctx, &paho.Publish{Topic: wire.AssignTopic(s.Hall(), a.Table), QoS: 1, Retain: true, Payload: b}); err != nil {
					log.Warn("hall assignment", "table", a.Table, "err", err)
				}
			}
		}()
	}
	cm, err := link.Dial(ctx, o, onError)
	if err != nil {
		return nil, err
	}
	return cm.Done(), nil
}
