// Package a2a builds A2A Agent Cards for agents: protocol v1.0 (camelCase,
// supportedInterfaces) and the v0.3 shape many SDKs still read (top-level
// url, preferredTransport, protocolVersion). Skills map field by field from
// charter's A2A-aligned skills.
package a2a

import (
	"strings"

	"github.com/charter-dev/charter/internal/config/model"
)

// Card is an A2A v1.0 AgentCard.
type Card struct {
	Name                string       `json:"name"`
	Description         string       `json:"description"`
	SupportedInterfaces []Interface  `json:"supportedInterfaces"`
	Provider            *Provider    `json:"provider,omitempty"`
	Version             string       `json:"version"`
	DocumentationURL    string       `json:"documentationUrl,omitempty"`
	Capabilities        Capabilities `json:"capabilities"`
	DefaultInputModes   []string     `json:"defaultInputModes"`
	DefaultOutputModes  []string     `json:"defaultOutputModes"`
	Skills              []Skill      `json:"skills,omitempty"`
}

// Interface is one way to reach the agent.
type Interface struct {
	URL             string `json:"url"`
	ProtocolBinding string `json:"protocolBinding"`
	ProtocolVersion string `json:"protocolVersion"`
}

// Provider is the organization that runs the agent.
type Provider struct {
	Organization string `json:"organization"`
	URL          string `json:"url"`
}

// Capabilities says which optional protocol features the agent supports.
type Capabilities struct {
	Streaming         bool     `json:"streaming"`
	PushNotifications bool     `json:"pushNotifications"`
	Extensions        []string `json:"extensions,omitempty"`
	ExtendedAgentCard bool     `json:"extendedAgentCard"`
}

// Skill is an A2A AgentSkill.
type Skill struct {
	ID          string   `json:"id"`
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Tags        []string `json:"tags,omitempty"`
	Examples    []string `json:"examples,omitempty"`
	InputModes  []string `json:"inputModes,omitempty"`
	OutputModes []string `json:"outputModes,omitempty"`
}

// ProtocolVersion is the A2A protocol version of Card.
const ProtocolVersion = "1.0"

const textPlain = "text/plain"

// NewCard builds the v1.0 card of agent id. version is the card's version
// (the repository's a2a.version, or the agent's content hash prefix).
func NewCard(id string, a *model.Agent, s model.A2ASettings, version string) *Card {
	c := &Card{
		Name:        a.Name,
		Description: description(a),
		Version:     version,
		SupportedInterfaces: []Interface{{
			URL:             endpoint(s.URL, id),
			ProtocolBinding: binding(s.ProtocolBinding),
			ProtocolVersion: ProtocolVersion,
		}},
		DocumentationURL: s.DocumentationURL,
		Capabilities:     Capabilities{Extensions: []string{}},
		Skills:           []Skill{},
	}
	c.DefaultInputModes, c.DefaultOutputModes = defaultModes(a)
	if s.Provider != nil {
		c.Provider = &Provider{Organization: s.Provider.Organization, URL: s.Provider.URL}
	}
	for _, sk := range append(append([]model.Skill{}, a.Skills.Primary...), a.Skills.Secondary...) {
		desc := sk.Description
		if desc == "" {
			desc = sk.Name
		}
		tags := sk.Tags
		if tags == nil {
			tags = []string{}
		}
		c.Skills = append(c.Skills, Skill{ID: sk.ID, Name: sk.Name, Description: desc, Tags: tags,
			Examples: sk.Examples, InputModes: modes(sk.InputModes), OutputModes: modes(sk.OutputModes)})
	}
	return c
}

// defaultModes returns the modes the agent has: those of its skills (a
// skill that names none has text/plain), and JSON output when it declares
// an output schema. A card claims no mode the agent's skills do not
// accept or produce.
func defaultModes(a *model.Agent) (in, out []string) {
	skills := append(append([]model.Skill{}, a.Skills.Primary...), a.Skills.Secondary...)
	add := func(list []string, m string) []string {
		for _, x := range list {
			if x == m {
				return list
			}
		}
		return append(list, m)
	}
	for _, sk := range skills {
		for _, m := range modes(sk.InputModes) {
			in = add(in, m)
		}
		for _, m := range modes(sk.OutputModes) {
			out = add(out, m)
		}
	}
	if len(in) == 0 {
		in = []string{textPlain}
	}
	if len(out) == 0 {
		out = []string{textPlain}
	}
	if len(a.Output) > 0 {
		out = add(out, "application/json")
	}
	return in, out
}

func modes(m []string) []string {
	if len(m) == 0 {
		return []string{textPlain}
	}
	return m
}

func description(a *model.Agent) string {
	if a.Description != "" {
		return strings.Join(strings.Fields(a.Description), " ")
	}
	parts := []string{}
	for _, p := range []string{a.Role, a.Department} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	if len(parts) == 0 {
		return a.Name
	}
	return a.Name + ", " + strings.Join(parts, ", ")
}

func endpoint(base, id string) string {
	if base == "" {
		base = "https://agents.invalid"
	}
	return strings.TrimRight(base, "/") + "/" + id
}

func binding(b string) string {
	if b == "" {
		return "JSONRPC"
	}
	return b
}

// CardV03 is the A2A v0.3 card shape. It holds only fields of the v0.3
// specification: strict v0.3 readers (a2a-go v0.3, @a2a-js/sdk 0.3) reject
// v1.0's, such as capabilities.extendedAgentCard, whose v0.3 counterpart is
// the top-level supportsAuthenticatedExtendedCard.
type CardV03 struct {
	ProtocolVersion                   string          `json:"protocolVersion"`
	Name                              string          `json:"name"`
	Description                       string          `json:"description"`
	URL                               string          `json:"url"`
	PreferredTransport                string          `json:"preferredTransport"`
	Provider                          *Provider       `json:"provider,omitempty"`
	Version                           string          `json:"version"`
	DocumentationURL                  string          `json:"documentationUrl,omitempty"`
	Capabilities                      CapabilitiesV03 `json:"capabilities"`
	DefaultInputModes                 []string        `json:"defaultInputModes"`
	DefaultOutputModes                []string        `json:"defaultOutputModes"`
	Skills                            []Skill         `json:"skills,omitempty"`
	SupportsAuthenticatedExtendedCard bool            `json:"supportsAuthenticatedExtendedCard,omitempty"`
}

// CapabilitiesV03 is the v0.3 AgentCapabilities.
type CapabilitiesV03 struct {
	Streaming         bool           `json:"streaming"`
	PushNotifications bool           `json:"pushNotifications"`
	Extensions        []ExtensionV03 `json:"extensions,omitempty"`
}

// ExtensionV03 is a v0.3 AgentExtension, named by its URI.
type ExtensionV03 struct {
	URI string `json:"uri"`
}

// V03 converts a v1.0 card to the v0.3 shape.
func (c *Card) V03() *CardV03 {
	caps := CapabilitiesV03{Streaming: c.Capabilities.Streaming, PushNotifications: c.Capabilities.PushNotifications}
	for _, uri := range c.Capabilities.Extensions {
		caps.Extensions = append(caps.Extensions, ExtensionV03{URI: uri})
	}
	return &CardV03{
		ProtocolVersion: "0.3.0", Name: c.Name, Description: c.Description,
		URL: c.SupportedInterfaces[0].URL, PreferredTransport: c.SupportedInterfaces[0].ProtocolBinding,
		Provider: c.Provider, Version: c.Version, DocumentationURL: c.DocumentationURL,
		Capabilities: caps, DefaultInputModes: c.DefaultInputModes, DefaultOutputModes: c.DefaultOutputModes,
		Skills: c.Skills, SupportsAuthenticatedExtendedCard: c.Capabilities.ExtendedAgentCard,
	}
}
