error('boom')
