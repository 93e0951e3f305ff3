package serve

import (
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/charter-dev/charter/internal/enforce/sessions"
)

// metrics are the server's Prometheus metrics, in a registry of its own.
type metrics struct {
	reg       *prometheus.Registry
	decisions *prometheus.CounterVec
	rejects   *prometheus.CounterVec
	latency   *prometheus.HistogramVec
	reloads   *prometheus.CounterVec
}

func newMetrics(st sessions.Store) *metrics {
	m := &metrics{reg: prometheus.NewRegistry()}
	m.decisions = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "charter_decisions_total", Help: "Decisions taken, by endpoint and outcome (allow, deny, ask).",
	}, []string{"endpoint", "decision"})
	m.rejects = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "charter_requests_rejected_total", Help: "Requests refused as malformed (HTTP 4xx), by endpoint.",
	}, []string{"endpoint"})
	m.latency = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name: "charter_decision_seconds", Help: "Time to decide, from the request read to the answer.",
		Buckets: []float64{25e-6, 50e-6, 100e-6, 250e-6, 500e-6, 1e-3, 2.5e-3, 5e-3, 10e-3, 50e-3, 0.25, 1},
	}, []string{"endpoint"})
	m.reloads = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "charter_bundle_reloads_total", Help: "Bundle loads, by result (ok, error).",
	}, []string{"result"})
	sessionsGauge := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "charter_sessions", Help: "Sessions kept in memory (-1: kept in Redis, not counted).",
	}, func() float64 { return float64(st.Count()) })
	m.reg.MustRegister(m.decisions, m.rejects, m.latency, m.reloads, sessionsGauge)
	return m
}

func (m *metrics) decided(endpoint, decision string, d time.Duration) {
	m.decisions.WithLabelValues(endpoint, decision).Inc()
	m.latency.WithLabelValues(endpoint).Observe(d.Seconds())
}

func (m *metrics) rejected(endpoint string) { m.rejects.WithLabelValues(endpoint).Inc() }

func (m *metrics) reload(result string) { m.reloads.WithLabelValues(result).Inc() }

func (m *metrics) handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}
