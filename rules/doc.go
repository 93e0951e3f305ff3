// Package rules evaluates rule profiles on the tool calls of an LLM agent.
package rules
