// Command knative-broker is a test stand-in for a Knative Broker: it receives CloudEvents (from the Knative
// adapters), routes each by the Triggers of a YAML file with Knative's own filter code, and posts it to the
// one subscriber the matching Trigger names, as Knative's broker filter does. It judges the Triggers on the
// way: an event that matches no Trigger or more than one, under the new `filters` or the old
// `filter.attributes`, or a reply that matches any Trigger, is recorded as an error (GET /errors).
//
//	knative-broker -listen 127.0.0.1:0 -triggers knative/eventing/triggers.yaml -subscriber http://127.0.0.1:8081/ \
//	  -address-file target/broker-address
//
// GET /deliveries lists what was delivered (type, kind, name, trigger, status); GET /errors what was wrong.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	cloudevents "github.com/cloudevents/sdk-go/v2"
	"github.com/cloudevents/sdk-go/v2/binding"
	cehttp "github.com/cloudevents/sdk-go/v2/protocol/http"
	"go.uber.org/zap"
	"sigs.k8s.io/yaml"

	eventingv1 "knative.dev/eventing/pkg/apis/eventing/v1"
	"knative.dev/eventing/pkg/broker"
	"knative.dev/eventing/pkg/eventfilter"
	"knative.dev/eventing/pkg/eventfilter/attributes"
	"knative.dev/eventing/pkg/eventfilter/subscriptionsapi"
)

// route is one Trigger with both of its filters materialized by Knative's code.
type route struct {
	name    string
	filters eventfilter.Filter // spec.filters, what brokers of Eventing 1.13+ apply
	filter  eventfilter.Filter // spec.filter.attributes, what older brokers apply
}

type delivery struct {
	ID      string `json:"id"`
	Type    string `json:"type"`
	Kind    string `json:"kind,omitempty"`
	Name    string `json:"name,omitempty"`
	Trigger string `json:"trigger,omitempty"`
	Status  int    `json:"status"`
	Reply   string `json:"reply,omitempty"`
	Outcome string `json:"outcome,omitempty"`
	Reason  string `json:"reason,omitempty"`
}

type state struct {
	recordDir  string
	recorded   map[string]bool
	mu         sync.Mutex
	deliveries []delivery
	errors     []string
}

func (s *state) fail(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	log.Print("ERROR " + msg)
	s.mu.Lock()
	s.errors = append(s.errors, msg)
	s.mu.Unlock()
}

func main() {
	listen := flag.String("listen", "127.0.0.1:0", "address to listen on")
	triggersFile := flag.String("triggers", "knative/eventing/triggers.yaml", "the Triggers to route by")
	subscriber := flag.String("subscriber", "", "URL every Trigger's subscriber stands for (the functions)")
	addressFile := flag.String("address-file", "", "file to write the broker's URL to once it listens")
	recordDir := flag.String("record", "", "folder to write the first event of each kind and type to, as received")
	flag.Parse()
	if *subscriber == "" {
		log.Fatal("-subscriber is required")
	}
	routes, err := readTriggers(*triggersFile)
	if err != nil {
		log.Fatal(err)
	}
	st := &state{recordDir: *recordDir, recorded: map[string]bool{}}
	client := &http.Client{Timeout: 60 * time.Second}
	mux := http.NewServeMux()
	mux.HandleFunc("/deliveries", func(w http.ResponseWriter, _ *http.Request) { st.writeJSON(w, true) })
	mux.HandleFunc("/errors", func(w http.ResponseWriter, _ *http.Request) { st.writeJSON(w, false) })
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(st.handle(r, routes, client, *subscriber))
	})
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		log.Fatal(err)
	}
	url := "http://" + ln.Addr().String() + "/"
	if *addressFile != "" {
		if err := os.WriteFile(*addressFile, []byte(url+"\n"), 0o644); err != nil {
			log.Fatal(err)
		}
	}
	log.Printf("broker listening on %s with %d triggers", url, len(routes))
	log.Fatal(http.Serve(ln, mux))
}

func readTriggers(file string) ([]route, error) {
	raw, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	logger := zap.NewNop()
	var routes []route
	for _, doc := range strings.Split(string(raw), "\n---") {
		var t eventingv1.Trigger
		if err := yaml.Unmarshal([]byte(doc), &t); err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		if t.Kind != "Trigger" {
			continue
		}
		r := route{name: t.Name, filters: subscriptionsapi.CreateSubscriptionsAPIFilters(logger, t.Spec.Filters)}
		if t.Spec.Filter != nil {
			r.filter = attributes.NewAttributesFilter(t.Spec.Filter.Attributes)
		} else {
			r.filter = subscriptionsapi.NewNoFilter()
		}
		routes = append(routes, r)
	}
	return routes, nil
}

// matches names the Triggers an event passes, under the new filters and under the old attributes filter.
func matches(ctx context.Context, routes []route, e cloudevents.Event) (byFilters, byAttributes []string) {
	for _, r := range routes {
		if r.filters.Filter(ctx, e) != eventfilter.FailFilter {
			byFilters = append(byFilters, r.name)
		}
		if r.filter.Filter(ctx, e) != eventfilter.FailFilter {
			byAttributes = append(byAttributes, r.name)
		}
	}
	return byFilters, byAttributes
}

func (s *state) handle(r *http.Request, routes []route, client *http.Client, subscriber string) int {
	ctx := r.Context()
	e, err := cehttp.NewEventFromHTTPRequest(r)
	if err != nil {
		s.fail("not a CloudEvent: %v", err)
		return http.StatusBadRequest
	}
	s.keep(*e)
	// What Knative's broker ingress adds to every event it accepts.
	e.SetExtension(broker.EventArrivalTime, cloudevents.Timestamp{Time: time.Now()})
	kind, _ := e.Extensions()["kind"].(string)
	name, _ := e.Extensions()["name"].(string)
	d := delivery{ID: e.ID(), Type: e.Type(), Kind: kind, Name: name}
	byFilters, byAttributes := matches(ctx, routes, *e)
	if len(byFilters) != 1 || len(byAttributes) != 1 {
		s.fail("event %s (type %s, kind %q, name %q) matches %v by filters and %v by filter.attributes; "+
			"exactly one Trigger each was expected", e.ID(), e.Type(), kind, name, byFilters, byAttributes)
	}
	if len(byFilters) == 0 {
		s.record(d)
		return http.StatusAccepted
	}
	d.Trigger = byFilters[0]
	// Delivered even if the sender hangs up, as a broker delivers what it accepted.
	status, reply := s.post(context.WithoutCancel(ctx), client, subscriber, *e)
	d.Status = status
	if reply != nil {
		d.Reply = reply.Type()
		var body struct{ Outcome, Reason string }
		if json.Unmarshal(reply.Data(), &body) == nil {
			d.Outcome, d.Reason = body.Outcome, body.Reason
		}
		if f, a := matches(ctx, routes, *reply); len(f) > 0 || len(a) > 0 {
			s.fail("reply %s to event %s matches Triggers %v (filters) %v (filter.attributes): it would loop",
				reply.Type(), e.ID(), f, a)
		}
	}
	s.record(d)
	return status
}

// post delivers the event in binary mode, as Knative's broker filter does, and reads a reply event if any.
func (s *state) post(ctx context.Context, client *http.Client, url string, e cloudevents.Event) (int, *cloudevents.Event) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, nil)
	if err != nil {
		s.fail("%v", err)
		return http.StatusInternalServerError, nil
	}
	if err := cehttp.WriteRequest(ctx, binding.ToMessage(&e), req); err != nil {
		s.fail("cannot write event %s: %v", e.ID(), err)
		return http.StatusInternalServerError, nil
	}
	resp, err := client.Do(req)
	if err != nil {
		s.fail("event %s not delivered: %v", e.ID(), err)
		return http.StatusBadGateway, nil
	}
	defer resp.Body.Close()
	msg := cehttp.NewMessageFromHttpResponse(resp)
	if msg.ReadEncoding() == binding.EncodingUnknown {
		return resp.StatusCode, nil
	}
	reply, err := binding.ToEvent(ctx, msg)
	if err != nil {
		s.fail("event %s: unreadable reply: %v", e.ID(), err)
		return resp.StatusCode, nil
	}
	return resp.StatusCode, reply
}

// keep writes the first event of each kind and type it sees, attributes and extensions as strings, data as is.
func (s *state) keep(e cloudevents.Event) {
	if s.recordDir == "" {
		return
	}
	kind, _ := e.Extensions()["kind"].(string)
	if kind == "" {
		kind = "no-kind"
	}
	file := fmt.Sprintf("%s/%s.%s.json", s.recordDir, kind, e.Type())
	s.mu.Lock()
	seen := s.recorded[file]
	s.recorded[file] = true
	s.mu.Unlock()
	if seen {
		return
	}
	attributes := map[string]string{"specversion": e.SpecVersion(), "id": e.ID(), "source": e.Source(),
		"type": e.Type(), "datacontenttype": e.DataContentType()}
	if e.Subject() != "" {
		attributes["subject"] = e.Subject()
	}
	if !e.Time().IsZero() {
		attributes["time"] = e.Time().UTC().Format(time.RFC3339Nano)
	}
	for k, v := range e.Extensions() {
		attributes[k] = fmt.Sprint(v)
	}
	out, err := json.MarshalIndent(map[string]any{"attributes": attributes, "data": json.RawMessage(e.Data())}, "", "  ")
	if err == nil {
		err = os.WriteFile(file, append(out, '\n'), 0o644)
	}
	if err != nil {
		s.fail("cannot record event %s: %v", e.ID(), err)
	}
}

func (s *state) record(d delivery) {
	s.mu.Lock()
	s.deliveries = append(s.deliveries, d)
	s.mu.Unlock()
}

func (s *state) writeJSON(w http.ResponseWriter, deliveries bool) {
	s.mu.Lock()
	var v any = append([]string{}, s.errors...)
	if deliveries {
		v = append([]delivery{}, s.deliveries...)
	}
	var buf bytes.Buffer
	err := json.NewEncoder(&buf).Encode(v)
	s.mu.Unlock()
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(buf.Bytes())
}
