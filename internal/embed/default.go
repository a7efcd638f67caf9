package embed

import "context"

// Default trains the offline embedder that retrieved best in this package's
// evaluation on the First Four Histories and CHisIEC: learned character
// vectors joined to idf-weighted hashed n-grams, with DefaultOptions. Pass
// the workspace's texts (paragraphs or chunks); with none, the model embeds
// by hashed n-grams alone. Store it with MarshalBinary and reload it with
// Load so that stored vectors stay valid.
func Default(ctx context.Context, corpus []string) (*Learned, error) {
	return Train(ctx, corpus, DefaultOptions())
}

// Load reads a model written by (*Learned).MarshalBinary.
func Load(data []byte) (*Learned, error) {
	l := new(Learned)
	if err := l.UnmarshalBinary(data); err != nil {
		return nil, err
	}
	return l, nil
}
