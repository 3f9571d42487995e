package agent

// RequestOf reads a request the way a server sees it, posted to path with
// body: Decode, then the model and the stream flag from the path when the
// format keeps them there (PathModel).
func (f *Format) RequestOf(path string, body []byte) (DecodedRequest, error) {
	req, err := f.Decode(body)
	if f.PathModel != nil {
		req.Model, req.Stream = f.PathModel(path)
	}
	return req, err
}

// TurnOf is Turn for a request posted to path: the model from the path when
// the format keeps it there (PathModel).
func (f *Format) TurnOf(path string, body []byte) (model string, turn int) {
	model, turn = f.Turn(body)
	if f.PathModel != nil {
		model, _ = f.PathModel(path)
	}
	return model, turn
}

// ServedPath is the path a server answers and matches a request to path on,
// whatever prefix it came under: BasePath + Path(model), or + WholePath(model)
// for a format whose path says the request does not stream.
func (f *Format) ServedPath(path, model string) string {
	if f.PathModel != nil && f.WholePath != nil {
		if _, stream := f.PathModel(path); !stream {
			return f.BasePath + f.WholePath(model)
		}
	}
	return f.BasePath + f.Path(model)
}
