return {value = 42}
