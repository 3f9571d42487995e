// Package apierror writes the body a server answers a refused request
// with, in the shape of the request's wire format, so that a client's SDK
// reads the error as it would from the real API.
//
// Use Write(w, f, status, code, message) from any handler that knows the
// request's format (an *agent.Format, found with wire.ForPath): the body is
// the format's own (agent.Format.ErrorBody): Anthropic Messages gets
// {"type":"error","error":{"type":..,"message":..}}, the type following
// from the status (messages.ErrorType: 429 is rate_limit_error, 500
// api_error, 529 overloaded_error, ...); chat completions and the OpenAI
// Responses API get {"error":{"message":..,"type":"invalid_request_error",
// "code":..}}, code as given. A nil f is the default format, the shape to
// use when the path names no format.
//
// Rules: the body is one JSON line with Content-Type application/json; the
// message is sent as given, so it must hold no secret. Errors inside a 200
// stream are events, not bodies: they are the server's business (package
// serve's error-event fault), not this package's.
package apierror
